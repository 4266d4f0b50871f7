import { ApiProperty } from '@nestjs/swagger';
import { IntField, TextField } from '../../common/validation';

export class CreatePropertyDto {
  @TextField({ description: 'Name of the casino', example: 'Casino Riviera', maxLength: 100 })
  name: string;

  @TextField({ description: 'IANA time zone of the casino', example: 'Europe/Monaco', maxLength: 64 })
  timeZone: string;

  @IntField({ description: 'Local hour (0–23) at which the gaming day starts', example: 6, min: 0, max: 23 })
  gamingDayStartHour: number;
}

export class PropertyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'Europe/Monaco' }) timeZone: string;
  @ApiProperty({ example: 6 }) gamingDayStartHour: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
