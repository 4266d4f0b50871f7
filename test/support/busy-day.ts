import { TestContext } from './app';
import { approveCredit, givenAdministrators, givenCreditLine, givenCreditOfficers, givenKey, givenPatrons, givenPit, givenVoid } from './builders';
import { agreeStatement, givenProgramme } from './credit-acts';

export interface BusyDay {
  supervisor: string;
  seatOneCoup: string;
  voidRequest: string;
  revokedKey: string;
  bankCoupVoid: string;
  buyIn: string;
  voidedBuyIn: string;
  seating: string;
}

/** A day's work through every kind of write the ledgers hold, through the API. */
export async function busyDay(ctx: TestContext): Promise<BusyDay> {
  const pit = await givenPit(ctx, { code: 'BUSY-1', tieBetsStay: true });
  const [s1, s2] = [pit.supervisor, await givenKey(ctx, 'SUPERVISOR')];
  const t = ctx.as(pit.terminal);
  // Patrons and money: a card in and out, cash and a marker bought in, the marker paid in cash, chips cashed.
  await givenPatrons(ctx, 'P-BUSY');
  const seating = (await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-BUSY', seat: 4 }).expect(201)).body.id as string;
  const cashIn = (await t.post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'CASH', amount: 50_000, seat: 4 }).expect(201)).body;
  const buyIn = cashIn.id as string;
  const today = cashIn.gamingDay as string;
  // The marker within the credit line the credit department approved (one requests, another approves).
  await givenCreditLine(ctx, pit.table.propertyId, { patronId: 'P-BUSY', currency: pit.table.currency }, 100_000);
  const marker = (await t.post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'MARKER', amount: 100_000, seat: 4 }).expect(201)).body.markerId as string;
  const keyedTwice = (await t.post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'CASH', amount: 50_000, seat: 4 }).expect(201)).body.id as string;
  await givenVoid(ctx, 'buy-ins', keyedTwice, 'keyed twice', s1, s2);
  await t.post(`/v1/seatings/${seating}/end`, {}).expect(200);
  const cashier = ctx.as(await givenKey(ctx, 'CASHIER'));
  // EUR at a USD property with no rate yet: the payment cannot be judged against the threshold, so a second person approves it.
  const officers = await givenCreditOfficers(ctx);
  const pay = { amount: 40_000, method: 'CASH' };
  const payAsked = (
    await cashier.post(`/v1/properties/${pit.table.propertyId}/credit-requests`, { act: 'REPAYMENT', markerId: marker, ...pay, reason: 'busy day' }).expect(201)
  ).body;
  await approveCredit(ctx, payAsked.id);
  await cashier.post(`/v1/markers/${marker}/payments`, { ...pay, requestId: payAsked.id }).expect(201);
  await cashier.post(`/v1/properties/${pit.table.propertyId}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: 70_000, patronId: 'P-BUSY' }).expect(201);
  // The rest of the marker written off, and the property's credit policy set: each under two-person approval.
  const credit = (body: object) =>
    ctx
      .as(officers.requester)
      .post(`/v1/properties/${pit.table.propertyId}/credit-requests`, { reason: 'busy day', ...body })
      .expect(201);
  await approveCredit(ctx, (await credit({ act: 'WRITE_OFF', markerId: marker })).body.id);
  const policy = { seniorLimitThreshold: 100_000_000, repaymentThreshold: 1_000_000, rollingCommissionCapBps: 150, winLossCommissionCapBps: 5_000 };
  await approveCredit(ctx, (await credit({ act: 'POLICY', ...policy })).body.id);
  const whole = (
    await t
      .post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards: { player: ['2C', '4D'], banker: ['7H', 'QC'] },
        wagers: [
          { seat: 1, betType: 'BANKER', amount: 10_000 },
          { seat: 2, betType: 'PLAYER', amount: 5_000 },
        ],
      })
      .expect(201)
  ).body;
  // A tie carries a Banker bet; the next coup is stepwise: opened, a wager added, then dealt.
  await t
    .post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards: { player: ['KC', '7D'], banker: ['QH', '7C'] },
      wagers: [{ seat: 1, betType: 'BANKER', amount: 2_000 }],
    })
    .expect(201);
  const open = (await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {}).expect(201)).body;
  await t.post(`/v1/coups/${open.id}/wagers`, { wagers: [{ seat: 3, betType: 'PLAYER', amount: 3_000 }] }).expect(201);
  await t.post(`/v1/coups/${open.id}/cards`, { player: ['9H', 'TD'], banker: ['8S', 'KD'] }).expect(200);
  await ctx.as(s1).post(`/v1/shoes/${pit.shoe.id}/commissions/collections`, { seat: 1, amount: 200 }).expect(201);
  await givenVoid(ctx, 'coups', open.id, 'keyed twice', s1, s2);
  const rejected = (await ctx.as(s1).post(`/v1/coups/${whole.id}/void`, { reason: 'a mistake?' }).expect(202)).body.voidRequestId;
  await ctx.as(s2).post(`/v1/void-requests/${rejected}/reject`, { note: 'checked: no mistake' }).expect(200);
  const session = (
    await ctx
      .as(s1)
      .post(`/v1/tables/${pit.table.id}/sessions`, { opener: [{ denomination: 2500, count: 40 }] })
      .expect(201)
  ).body;
  const slip = (
    await ctx
      .as(s1)
      .post(`/v1/table-sessions/${session.id}/slips`, { kind: 'FILL', chips: [{ denomination: 2500, count: 4 }] })
      .expect(201)
  ).body;
  await givenVoid(ctx, 'slips', slip.id, 'wrong table', s1, s2);
  const chemmy = await givenPit(ctx, { code: 'BUSY-CHEMMY', variant: 'CHEMIN_DE_FER', decks: 6 });
  const bank = (
    await ctx
      .as(chemmy.terminal)
      .post(`/v1/shoes/${chemmy.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] })
      .expect(201)
  ).body;
  const bankCoup = (
    await ctx
      .as(chemmy.terminal)
      .post(`/v1/banks/${bank.id}/coups`, { cards: { player: ['KS', '5D'], banker: ['7H', 'KC'] }, stakes: [{ seat: 2, amount: 4_000 }] })
      .expect(201)
  ).body;
  const bankVoid = (await ctx.as(s1).post(`/v1/bank-coups/${bankCoup.id}/void`, { reason: 'wrong bank' }).expect(202)).body.voidRequestId;
  await ctx.as(s2).post(`/v1/void-requests/${bankVoid}/approve`, {}).expect(200);
  // A dealer takes the table, the pit sets the pace it expects, finance enters a rate, the session closes, the chemin de fer shoe closes.
  await t.post(`/v1/tables/${pit.table.id}/dealers`, { dealerId: 'D-BUSY' }).expect(201);
  await ctx.as(s1).post(`/v1/properties/${pit.table.propertyId}/pace-targets`, { variant: 'COMMISSION', decisionsPerHour: 70 }).expect(201);
  // Rolling chips and a junket: a programme from today (its terms requested and approved), a junket with an agent and a member, a
  // marker, dead chips bought against it and a repayment, the junket's credit to its player, a period gone by agreed (asked and approved).
  const pid = pit.table.propertyId;
  const financeKey = await givenKey(ctx, 'FINANCE');
  const finance = ctx.as(financeKey);
  await givenProgramme(ctx, financeKey, pid, { code: 'BUSY-ROLL', name: 'Busy 1 %', basis: 'ROLLING', commissionBps: 100, effectiveFrom: today });
  const junket = (
    await finance.post(`/v1/properties/${pid}/junkets`, { code: 'BUSY-JUNKET', name: 'Busy junket', currency: 'EUR', creditLimit: 1_000_000 }).expect(201)
  ).body.id as string;
  const [line] = (await finance.get(`/v1/properties/${pid}/credit-requests?subject=${junket}`).expect(200)).body;
  await approveCredit(ctx, line.id);
  await finance.post(`/v1/junkets/${junket}/agents`, { code: 'AG-BUSY', name: 'Busy agent' }).expect(201);
  await finance.post(`/v1/junkets/${junket}/members`, { patronId: 'P-BUSY', programme: 'BUSY-ROLL', agent: 'AG-BUSY' }).expect(201);
  await cashier.post(`/v1/junkets/${junket}/account`, { kind: 'MARKER', amount: 200_000 }).expect(201);
  await cashier.post(`/v1/patrons/P-BUSY/chip-exchanges`, { kind: 'PURCHASE', amount: 30_000, settledIn: 'MARKER', tableId: pit.table.id }).expect(201);
  // A wire in another currency than the property's cash currency waits for a second person.
  const repay = { amount: 50_000, method: 'WIRE', reference: 'SWIFT BUSY-1' };
  const asked = (await cashier.post(`/v1/properties/${pid}/credit-requests`, { act: 'REPAYMENT', junketId: junket, ...repay, reason: 'busy day' }).expect(201))
    .body;
  await approveCredit(ctx, asked.id);
  await cashier.post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', ...repay, requestId: asked.id }).expect(201);
  await cashier.post(`/v1/junkets/${junket}/player-credit`, { patronId: 'P-BUSY', kind: 'ADVANCE', amount: 20_000 }).expect(201);
  const gone = { from: '2026-01-01', to: '2026-01-31' };
  const digest = (await finance.get(`/v1/junkets/${junket}/statement?from=${gone.from}&to=${gone.to}`).expect(200)).body.digest as string;
  const agreed = await agreeStatement(ctx, financeKey, junket, { ...gone, junketSignatory: 'Busy cashier', digest });
  if (agreed.status !== 201) throw new Error(`busy day: statement ${agreed.status} ${JSON.stringify(agreed.body)}`);
  await ctx
    .as(await givenKey(ctx, 'FINANCE'))
    .post('/v1/exchange-rates', { day: '2026-11-20', currency: 'EUR', into: 'USD', rate: '1.0842' })
    .expect(201);
  await ctx
    .as(s1)
    .post(`/v1/table-sessions/${session.id}/close`, { closer: [{ denomination: 2500, count: 30 }], drop: 60_000 })
    .expect(200);
  await ctx.as(chemmy.terminal).post(`/v1/shoes/${chemmy.shoe.id}/close`, {}).expect(200);
  const doomed = await givenKey(ctx, 'FINANCE');
  const keyId = (await ctx.admin.get('/v1/api-keys')).body.find((k: { keyPrefix: string }) => doomed.startsWith(k.keyPrefix)).id;
  // Revoked by an administrator of the register: the bootstrap key acts on no person's key once they exist.
  await ctx
    .as((await givenAdministrators(ctx)).first)
    .post(`/v1/api-keys/${keyId}/revoke`)
    .expect(200);
  return {
    supervisor: s1,
    seatOneCoup: whole.id,
    voidRequest: rejected,
    revokedKey: keyId,
    bankCoupVoid: bankCoup.id,
    buyIn,
    voidedBuyIn: keyedTwice,
    seating,
  };
}
