import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, RECORDERS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { ClosedShoeDto, OpenShoeDto, ShoeDto } from './dto/shoe.dto';
import { ShoesService } from './shoes.service';

@ApiTags('Shoes')
@Controller('v1')
export class ShoesController {
  constructor(private readonly shoes: ShoesService) {}

  @Post('tables/:id/shoes')
  @Endpoint({ operationId: 'openShoe', summary: 'Open a shoe at a table (one open shoe per table)', roles: RECORDERS, status: 201, type: ShoeDto, errors: ['NOT_FOUND', 'TABLE_CLOSED', 'SHOE_ALREADY_OPEN', 'INVALID_SHOE', 'CARD_NOT_IN_SHOE'] })
  open(@IdParam() tableId: string, @Body() dto: OpenShoeDto, @CurrentActor() actor: Actor): Promise<ShoeDto> {
    return this.shoes.open(tableId, dto, actor);
  }

  @Get('tables/:id/shoes')
  @Endpoint({ operationId: 'listShoes', summary: "A table's shoes", roles: EVERYONE, type: ShoeDto, isArray: true, errors: ['NOT_FOUND'] })
  list(@IdParam() tableId: string, @CurrentActor() actor: Actor): Promise<ShoeDto[]> {
    return this.shoes.listForTable(tableId, actor);
  }

  @Get('shoes/:id')
  @Endpoint({ operationId: 'getShoe', summary: 'Read a shoe: its coups, the cards seen and the cards remaining', roles: EVERYONE, type: ShoeDto, errors: ['NOT_FOUND'] })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<ShoeDto> {
    return this.shoes.get(id, actor);
  }

  @Post('shoes/:id/close')
  @Endpoint({ operationId: 'closeShoe', summary: 'Close a shoe; reports the commission still owed per seat', roles: RECORDERS, type: ClosedShoeDto, errors: ['NOT_FOUND', 'SHOE_CLOSED', 'COUP_IN_PROGRESS'] })
  close(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<ClosedShoeDto> {
    return this.shoes.close(id, actor);
  }
}
