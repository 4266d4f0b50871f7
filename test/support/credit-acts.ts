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
  const asked = await askStatement(ctx, junketId, terms);
  if (asked.status !== 201) throw new Error(`statement request: ${asked.status} ${JSON.stringify(asked.body)}`);
  return asked.body.id as string;
}

/** A STATEMENT request asked for and approved: the first answer that is not a success, or the approval's. */
async function askStatement(ctx: TestContext, junketId: string, terms: StatementTerms): Promise<{ status: number; body: any }> {
  const { requester, approver } = await givenCreditOfficers(ctx);
  const junket = (await ctx.as(requester).get(`/v1/junkets/${junketId}`).expect(200)).body;
  const asked = await ctx
    .as(requester)
    .post(`/v1/properties/${junket.propertyId}/credit-requests`, { act: 'STATEMENT', junketId, ...terms, reason: 'statement agreed' });
  if (asked.status !== 201) return asked;
  const approved = await ctx.as(approver).post(`/v1/credit-requests/${asked.body.id}/approve`, {});
  if (approved.status !== 200 || approved.body.status !== 'APPROVED') return approved;
  return asked;
}

/**
 * Agrees the junket's statement for `terms`, recorded by `recorder`: asked for by one credit officer,
 * approved by another, then recorded quoting the request. The first refusal on the way is the answer
 * (what the record would refuse is refused when asked for or approved), else the record's answer.
 */
export async function agreeStatement(ctx: TestContext, recorder: string, junketId: string, terms: StatementTerms) {
  const asked = await askStatement(ctx, junketId, terms);
  if (asked.status !== 201) return asked;
  return ctx.as(recorder).post(`/v1/junkets/${junketId}/statements`, { ...terms, requestId: asked.body.id });
}
