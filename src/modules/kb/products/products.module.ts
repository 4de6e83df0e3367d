import { Module } from '@nestjs/common';
import { kbModule, KbServiceFor } from '../../../shared/infrastructure/kb-module';
import { KbController } from '../../../shared/interface/http/kb-controller.factory';
import { productResource } from './product.resource';

export class ProductsService extends KbServiceFor(productResource) {}

export class ProductsController extends KbController(productResource, ProductsService) {}

@Module(kbModule(productResource, ProductsService, ProductsController))
export class ProductsModule {}
