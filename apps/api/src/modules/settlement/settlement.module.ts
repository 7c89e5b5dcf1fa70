import { Module } from '@nestjs/common';
import { PayoutsDataModule } from '@svc/payments';
import { ProductsModule } from '../products/products.module';
import { SettlementAddressesController } from './settlement-addresses.controller';
import { SettlementAddressesService } from './settlement-addresses.service';

/** Settlement addresses and product routes (money contract › Settlement addresses). No keys: the API never signs. */
@Module({
  imports: [PayoutsDataModule, ProductsModule],
  controllers: [SettlementAddressesController],
  providers: [SettlementAddressesService],
})
export class SettlementModule {}
