import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Network } from '@svc/domain';
import { ProductEntity } from './product.entity';
import { SettlementAddressEntity } from './settlement-address.entity';

/**
 * A product's route for one rail (money contract › Payouts 2): its payments on that (chain,
 * network) are paid out to this settlement address instead of the rail's default. Replaced as a
 * whole by `PUT /v1/products/:id/settlement-routes`; a retired address takes its routes with it.
 */
@Entity('product_settlement_routes')
@Index('IDX_product_settlement_routes_address', ['settlementAddressId'])
export class ProductSettlementRouteEntity {
  @PrimaryColumn({ name: 'product_id', type: 'uuid' })
  productId!: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'FK_product_settlement_routes_product' })
  product?: ProductEntity;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  chain!: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ name: 'settlement_address_id', type: 'uuid' })
  settlementAddressId!: string;

  @ManyToOne(() => SettlementAddressEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'settlement_address_id',
    foreignKeyConstraintName: 'FK_product_settlement_routes_address',
  })
  settlementAddress?: SettlementAddressEntity;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
