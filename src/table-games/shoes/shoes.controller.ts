import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, RECORDERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { ClosedShoeDto, OpenShoeDto, ShoeDto } from './dto/shoe.dto';
import { RoadsDto } from '../../platform/common/roads.dto';
import { ShoesService } from './shoes.service';

@ApiTags('Shoes')
@Controller('v1')
export class ShoesController {
  constructor(private readonly shoes: ShoesService) {}

  @Endpoint('POST', 'tables/:id/shoes', {
    operationId: 'openShoe',
    summary: 'Open a shoe at a table (one open shoe per table)',
    description:
      "Opens a shoe at an open table: the number of decks (the table's by default), the cards burned after the shuffle (counted out of the shoe) and where the cut card lies. One open shoe per table.",
    writes: 'a shoe row with its full composition less the burned cards; the audit entry `shoe.open`.',
    roles: RECORDERS,
    status: 201,
    type: ShoeDto,
    errors: ['NOT_FOUND', 'TABLE_CLOSED', 'SHOE_ALREADY_OPEN', 'INVALID_SHOE', 'CARD_NOT_IN_SHOE'],
  })
  open(@IdParam() tableId: string, @Body() dto: OpenShoeDto, @CurrentContext() ctx: RequestContext): Promise<ShoeDto> {
    return this.shoes.open(tableId, dto, ctx);
  }

  @Endpoint('GET', 'tables/:id/shoes', {
    operationId: 'listShoes',
    summary: "A table's shoes",
    description: "A table's shoes, newest first, with their counters.",
    roles: EVERYONE,
    type: ShoeDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() tableId: string, @CurrentActor() actor: Actor): Promise<ShoeDto[]> {
    return this.shoes.listForTable(tableId, actor);
  }

  @Endpoint('GET', 'shoes/:id', {
    operationId: 'getShoe',
    summary: 'Read a shoe: its coups, the cards seen and the cards remaining',
    description:
      'A shoe: its counters, the cards dealt and burned, and the composition still in the shoe (what the exact odds of the next coup are computed from).',
    roles: EVERYONE,
    type: ShoeDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<ShoeDto> {
    return this.shoes.get(id, actor);
  }

  @Endpoint('GET', 'shoes/:id/roads', {
    operationId: 'getShoeRoads',
    summary: "The shoe's scoreboard: bead plate, big road and the three derived roads",
    description:
      "The five roads a baccarat scoreboard shows, computed by the engine from the shoe's settled coups (voided coups leave no mark), as grids six rows high a terminal draws cell by cell without recomputing anything: the bead plate (every coup, ties and pairs included), the big road (Banker and Player columns, ties marked on the cell before, dragon tails), big eye boy, small road and cockroach pig (red and blue), and the look-ahead each derived road shows for a next Banker or Player win. The rules, with worked grids, are in the domain documentation (§8). Casino-banked coups only: player-banked bank coups keep their own records.",
    roles: EVERYONE,
    type: RoadsDto,
    errors: ['NOT_FOUND'],
  })
  roads(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<RoadsDto> {
    return this.shoes.roads(id, actor);
  }

  @Endpoint('POST', 'shoes/:id/close', {
    operationId: 'closeShoe',
    summary: 'Close a shoe; reports the commission still owed per seat',
    description:
      'Closes a shoe. A coup open for betting must be dealt first. The answer lists the commission each seat still owes (collect it before or after).',
    writes: "the shoe's status (and any active bank closed with it); the audit entry `shoe.close`.",
    roles: RECORDERS,
    type: ClosedShoeDto,
    errors: ['NOT_FOUND', 'SHOE_CLOSED', 'COUP_IN_PROGRESS'],
  })
  close(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<ClosedShoeDto> {
    return this.shoes.close(id, ctx);
  }
}
