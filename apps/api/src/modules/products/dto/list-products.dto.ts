import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';

/** spec: GET /v1/products `status` = active, archived or all (default all). */
export class ListProductsQueryDto {
  @Optional() @IsString() @MaxLength(16) status?: string;
}
