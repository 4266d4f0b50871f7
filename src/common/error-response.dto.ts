import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from './errors';

/** The one error body, on every route. */
export class ErrorResponseDto {
  @ApiProperty({ example: 422 })
  statusCode: number;

  @ApiProperty({ enum: ERROR_CODES, example: 'MISDEAL' })
  code: string;

  @ApiProperty({ example: 'Player has 5 and must draw a third card, but none was recorded' })
  message: string;

  @ApiPropertyOptional({ description: 'Field-by-field problems (validation) or other specifics', type: 'object', additionalProperties: true })
  details?: unknown;

  @ApiProperty({ example: '5d0c6f5e-2f4b-4c1e-9a8e-2a3f4b5c6d7e', description: 'Also in the X-Correlation-Id response header' })
  correlationId: string;
}
