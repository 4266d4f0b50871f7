import { TextField } from '../../../platform/common/validation';

/** At most this many tables in one stream (a pit's worth, and more). */
export const MAX_STREAM_TABLES = 100;
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export class TablesEventsQuery {
  @TextField({
    description: `The tables whose events to stream: their ids, separated by commas (1 to ${MAX_STREAM_TABLES})`,
    maxLength: 37 * MAX_STREAM_TABLES,
    pattern: new RegExp(`^${UUID}(,${UUID}){0,${MAX_STREAM_TABLES - 1}}$`),
    patternHint: `must be 1 to ${MAX_STREAM_TABLES} table ids (UUIDs) separated by commas`,
    example: '6f1c1e4e-8d2b-4a57-9a43-1f0e7c1d2a10,0b9d7a52-3c7e-4f5b-8e1d-2a6c9b4f7e31',
  })
  tables!: string;
}
