import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES } from './errors';

/** One field's problems in a VALIDATION_FAILED answer. */
@ApiSchema({ name: 'ValidationProblem' })
export class ValidationProblemDto {
  @ApiProperty({ example: 'wagers.0.amount', description: 'The field, as a path into the body' })
  field: string;

  @ApiProperty({ type: String, isArray: true, example: ['wagers.0.amount must be at least 1'] })
  problems: string[];
}

/** The one error body, on every route. */
@ApiSchema({ name: 'ErrorResponse' })
export class ErrorResponseDto {
  @ApiProperty({ example: 422 })
  statusCode: number;

  @ApiProperty({ enum: ERROR_CODES, example: 'MISDEAL' })
  code: string;

  @ApiProperty({ example: 'Player has 5 and must draw a third card, but none was recorded' })
  message: string;

  @ApiPropertyOptional({
    description: 'VALIDATION_FAILED: one entry per field with its problems; other codes: an object with specifics, when any',
    oneOf: [
      { type: 'array', items: { $ref: '#/components/schemas/ValidationProblem' } },
      { type: 'object', additionalProperties: true },
    ],
  })
  details?: unknown;

  @ApiProperty({ example: '5d0c6f5e-2f4b-4c1e-9a8e-2a3f4b5c6d7e', description: 'Also in the X-Correlation-Id response header' })
  correlationId: string;
}
