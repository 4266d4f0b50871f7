import { Injectable } from '@nestjs/common';
import type { CreditAct } from '../../generated/prisma/client';
import type { Tx } from '../../platform/database/prisma.service';

/** A room's check of an act's terms against the records now: throws what the record would answer. */
export type ApprovalCheck = (tx: Tx, terms: Readonly<Record<string, unknown>>, when: 'ASKED' | 'APPROVED') => Promise<void>;

/**
 * What a room that records an act quoting an approved credit request (docs/domain/credit.md) checks
 * when the request is asked for and again when it is approved, so that two persons never approve
 * what the record would refuse: the junkets room, that a statement's period has ended, is not
 * locked, and its figures still give the digest the junket saw. The room registers its check at
 * start; the credit room runs it. Neither imports the other.
 */
@Injectable()
export class ApprovalChecks {
  private readonly checks = new Map<CreditAct, ApprovalCheck>();

  register(act: CreditAct, check: ApprovalCheck): void {
    this.checks.set(act, check);
  }

  async check(act: CreditAct, tx: Tx, terms: Readonly<Record<string, unknown>>, when: 'ASKED' | 'APPROVED'): Promise<void> {
    await this.checks.get(act)?.(tx, terms, when);
  }
}
