import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { badRequest } from '@svc/core';
import { Caller, CurrentCaller } from '../auth/auth.decorators';
import { CreateProductDto } from './dto/create-product.dto';
import { ListProductsQueryDto } from './dto/list-products.dto';
import { UpdateProductDto } from './dto/update-product.dto';
import { ProductRow, productRow, ProductWithNetworks, productWithNetworks } from './products.presenter';
import { ProductsService, ProductStatusFilter } from './products.service';

const STATUS_FILTERS: readonly ProductStatusFilter[] = ['active', 'archived', 'all'];

@Controller('v1/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateProductDto): Promise<ProductRow> {
    return productRow(await this.products.create(caller.workspaceId, body));
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListProductsQueryDto): Promise<ProductWithNetworks[]> {
    const filter = (query.status ?? 'all') as ProductStatusFilter;
    if (!STATUS_FILTERS.includes(filter)) throw badRequest(`status must be one of: ${STATUS_FILTERS.join(', ')}.`);
    return (await this.products.list(caller.workspaceId, filter)).map(productWithNetworks);
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ProductWithNetworks> {
    return productWithNetworks(await this.products.get(caller.workspaceId, id));
  }

  @Patch(':id')
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateProductDto,
  ): Promise<ProductRow> {
    return productRow(await this.products.update(caller.workspaceId, id, body));
  }

  @Post(':id/archive')
  @HttpCode(200)
  async archive(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ProductRow> {
    return productRow(await this.products.archive(caller.workspaceId, id));
  }

  @Delete(':id')
  delete(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.products.delete(caller.workspaceId, id);
  }
}
