import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** Surveillance's named queries (surveillance.sql). */
export const SURVEILLANCE_SQL = loadQueries<{
  pendingEntries: { perStream: number; batch: number };
  advanceCursors: { streams: string[]; seqs: string[]; macs: string[]; macKey: string };
  surveyorCursors: Record<string, never>;
  resetSurveyorCursor: { stream: string; seq: string; mac: string; macKey: string };
  surveyorAdopted: Record<string, never>;
  keySurveyorCursors: { streams: string[]; macs: string[]; macKey: string };
  surveyedShoes: Record<string, never>;
  surveyedImages: { shoeIds: string[] };
  lastRead: { quoted: string };
  claimSurveyor: Record<string, never>;
  tableTerms: { tableId: string };
  shoeOf: { shoeId: string };
  coupsToSurvey: { coupIds: string[] };
  lastCoupToSurvey: { shoeId: string };
  tablePropertyOf: { tableId: string };
  shoeCoups: { shoeId: string; upTo: number };
  insertCoupSurveys: {
    coupIds: string[];
    tableIds: string[];
    shoeIds: string[];
    gamingDays: string[];
    dealerIds: (string | null)[];
    firstValues: number[];
    odds: number[];
    oddsLength: number;
  };
  runHits: { keys: string[] };
  indexedPlaces: { propertyId: string };
  insertRuns: { keys: string[]; shoeIds: string[]; positions: number[] };
  patronsOfShoe: { shoeId: string };
  seatsOfShoe: { shoeId: string };
  subjectRecord: { patronId: string | null; tableId: string | null; seat: number | null; propertyId: string; fromDay: string; toDay: string };
  oddsOf: { coupIds: string[] };
  subjectAlerts: { patronId: string | null; tableId: string | null; seat: number | null };
  recentShoes: { tableId: string; shoeId: string; limit: number };
  raiseAlert: {
    kind: string;
    severity: string;
    pValue: number;
    threshold: number;
    tableId: string;
    shoeId: string;
    patronId: string | null;
    dealerId: string | null;
    seat: number | null;
    gamingDay: string;
    evidence: string;
    dedupeKey: string;
  };
  listAlerts: {
    id: string | null;
    status: string | null;
    kind: string | null;
    tableId: string | null;
    shoeId: string | null;
    patronId: string | null;
    dealerId: string | null;
  };
  addStep: { alertId: string; step: string; note: string | null; keyId: string };
  openAlertsBy: { by: string };
}>(path.join(__dirname, 'surveillance.sql'));
