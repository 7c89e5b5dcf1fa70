import { Module } from '@nestjs/common';
import { CheckoutSettingsModule } from '../checkout/checkout-settings.module';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

@Module({
  imports: [CheckoutSettingsModule],
  controllers: [ProductsController],
  providers: [ProductsService],
  exports: [ProductsService],
})
export class ProductsModule {}
