import { ApiProperty } from '@nestjs/swagger';
import { MAX_EXPECTED_PACE, MIN_EXPECTED_PACE, VARIANTS } from '../../../domain';
import { EnumField, IntField } from '../../../platform/common/validation';

export class SetPaceTargetDto {
  @EnumField(VARIANTS, { description: 'The game the expected pace is for', enumName: 'Variant', example: 'COMMISSION' })
  variant: (typeof VARIANTS)[number];

  @IntField({
    description:
      "Decisions (coups settled and standing) per hour of staffed time the property expects of a table of this variant: what the pace report compares each table with (docs/domain.md §13). Replaces the variant's earlier entry, or its default.",
    example: 70,
    min: MIN_EXPECTED_PACE,
    max: MAX_EXPECTED_PACE,
  })
  decisionsPerHour: number;
}

export class PaceTargetDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ enum: VARIANTS, enumName: 'Variant' }) variant: string;
  @ApiProperty({ example: 70 }) decisionsPerHour: number;
  @ApiProperty({ description: 'The key that entered it' }) enteredBy: string;
  @ApiProperty({ format: 'date-time' }) enteredAt: string;
  @ApiProperty({ description: 'False once a later entry for the same variant replaced it' }) inForce: boolean;
}

export class PaceTargetInForceDto {
  @ApiProperty({ enum: VARIANTS, enumName: 'Variant' }) variant: string;
  @ApiProperty({ example: 70, description: 'The expected decisions per hour in force' }) decisionsPerHour: number;
  @ApiProperty({
    enum: ['PROPERTY', 'DEFAULT'],
    description: "PROPERTY: the property's latest entry; DEFAULT: none entered, the default derived from a coup's time budget (docs/domain.md §13)",
  })
  source: 'PROPERTY' | 'DEFAULT';
  @ApiProperty({ example: 72, description: "The variant's default, whether or not the property replaced it" }) defaultDecisionsPerHour: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The entry in force (null: the default)' }) entryId: string | null;
}

export class PaceTargetsDto {
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ type: PaceTargetInForceDto, isArray: true, description: 'Every variant, with the pace expected of it now' }) inForce: PaceTargetInForceDto[];
  @ApiProperty({ type: PaceTargetDto, isArray: true, description: "Every entry the property made, oldest first (each variant's latest is in force)" })
  entries: PaceTargetDto[];
}
