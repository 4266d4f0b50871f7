import { ApiProperty } from '@nestjs/swagger';
import { IntField, TextField } from '../../common/validation';

export class CreatePropertyDto {
  @TextField({ description: 'Name of the casino', example: 'Casino Riviera', maxLength: 100 })
  name: string;

  @TextField({ description: 'IANA time zone of the casino', example: 'Europe/Monaco', maxLength: 64 })
  timeZone: string;

  @IntField({ description: 'Local hour (0–23) at which the gaming day starts', example: 6, min: 0, max: 23 })
  gamingDayStartHour: number;

  @IntField({
    description: "The share of a patron's theoretical win given back as comps, in basis points (2000 = 20 %, the default)",
    example: 2000,
    min: 0,
    max: 10_000,
    required: false,
  })
  compShareBps?: number;
}

export class PropertyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'Europe/Monaco' }) timeZone: string;
  @ApiProperty({ example: 6 }) gamingDayStartHour: number;
  @ApiProperty({ example: 2000, description: "Comps: the share of a patron's theoretical win given back, in basis points" }) compShareBps: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
