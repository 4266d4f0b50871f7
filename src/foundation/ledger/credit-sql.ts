import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The credit floor's named queries (credit.sql). */
export const CREDIT_SQL = loadQueries<{
  lockHolder: { holder: string };
  lockRequest: { id: string };
  lockJunket: { junketId: string };
  patronLine: { patronId: string; propertyId: string; currency: string };
  junketLine: { operatorId: string };
  policyInForce: { propertyId: string };
  requestsOf: { propertyId: string; subject: string | null; limit: number };
  requestById: { id: string };
  markersOwed: { propertyId: string; patronId: string | null; markerId: string | null; currency: string | null };
  lockFrontMoney: { propertyId: string; patronId: string };
  frontMoneyHeld: { propertyId: string; patronId: string; currency: string };
  junketOfMember: { patronId: string; propertyId: string; day: string };
  junketUndrawn: { junketId: string };
  rateInto: { currency: string; into: string; day: string };
}>(path.join(__dirname, 'credit.sql'));
