import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A workspace is the spec's merchant: `merchantId` is its id. */
@Entity('workspaces')
export class WorkspaceEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
