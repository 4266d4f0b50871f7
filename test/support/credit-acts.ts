import { TestContext } from './app';
import { approveCredit, givenCreditOfficers } from './builders';

/**
 * Credit acts recorded by the room that owns them, as a casino does them (docs/domain/credit.md):
 * one credit officer requests the act with its terms, a second approves, and the record quotes the
 * request. A programme's terms (act PROGRAMME), a junket's statement agreed (act STATEMENT).
 */

const created = (res: { status: number; body: any }, what: string): Record<string, any> => {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** A programme version's terms as the rolling room records them. */
export interface ProgrammeTerms {
  code: string;
  name: string;
  basis: 'ROLLING' | 'WIN_LOSS';
  commissionBps: number;
  allowanceBps?: number;
  effectiveFrom: string;
}

/** The id of a PROGRAMME request for `terms` at the property, approved by a second credit officer. */
export async function approvedProgrammeRequest(ctx: TestContext, propertyId: string, terms: ProgrammeTerms): Promise<string> {
  const { requester } = await givenCreditOfficers(ctx);
  const asked = created(
    await ctx.as(requester).post(`/v1/properties/${propertyId}/credit-requests`, { act: 'PROGRAMME', ...terms, reason: 'programme terms' }),
    'programme request',
  );
  const r = await approveCredit(ctx, asked.id as string);
  if (r.status !== 'APPROVED') throw new Error(`programme request: ${JSON.stringify(r)}`);
  return asked.id as string;
}

/** A programme version in force from `terms.effectiveFrom`: requested, approved, recorded by `recorder` (a FINANCE key) quoting the request. */
export async function givenProgramme(ctx: TestContext, recorder: string, propertyId: string, terms: ProgrammeTerms): Promise<Record<string, any>> {
  const requestId = await approvedProgrammeRequest(ctx, propertyId, terms);
  return created(await ctx.as(recorder).post(`/v1/properties/${propertyId}/rolling-programmes`, { ...terms, requestId }), 'programme version');
}

/** A junket statement's agreement as the junkets room records it. */
export interface StatementTerms {
  from: string;
  to: string;
  digest: string;
  junketSignatory: string;
}

/** The id of a STATEMENT request to agree `terms` for the junket, approved by a second credit officer. */
export async function approvedStatementRequest(ctx: TestContext, junketId: string, terms: StatementTerms): Promise<string> {
  const { requester } = await givenCreditOfficers(ctx);
  const junket = (await ctx.as(requester).get(`/v1/junkets/${junketId}`).expect(200)).body;
  const asked = created(
    await ctx.as(requester).post(`/v1/properties/${junket.propertyId}/credit-requests`, { act: 'STATEMENT', junketId, ...terms, reason: 'statement agreed' }),
    'statement request',
  );
  const r = await approveCredit(ctx, asked.id as string);
  if (r.status !== 'APPROVED') throw new Error(`statement request: ${JSON.stringify(r)}`);
  return asked.id as string;
}

/** Agrees the junket's statement for `terms` (requested and approved first), recorded by `recorder`: its answer, whatever it is. */
export async function agreeStatement(ctx: TestContext, recorder: string, junketId: string, terms: StatementTerms) {
  const requestId = await approvedStatementRequest(ctx, junketId, terms);
  return ctx.as(recorder).post(`/v1/junkets/${junketId}/statements`, { ...terms, requestId });
}
