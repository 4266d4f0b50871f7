import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

type Junket = { junketId: string };
type Period = { junketId: string; from: string; to: string };
/** The members whose play and exchanges a statement reads, at the junket's property, over its period. */
export type Members = { patrons: string[]; propertyId: string; currency: string; from: string; to: string };

/** The junkets room's named queries (junkets.sql). */
export const JUNKETS_SQL = loadQueries<{
  lockJunket: Junket;
  junketEntryTotals: Junket & { before: string | null };
  junketEntries: Period;
  junketMemberships: Junket & { propertyId: string };
  junketMemberPlay: Members;
  junketMemberExchanges: Members;
  junketProgrammes: { propertyId: string };
  junketPlayerCredit: Junket & { to: string };
  junketAgreed: Junket;
  junketFirstDay: Junket;
  junketPlayedToday: { patronId: string; propertyId: string; today: string };
  junketPlayerOwes: Junket & { patronId: string };
}>(path.join(__dirname, 'junkets.sql'));
