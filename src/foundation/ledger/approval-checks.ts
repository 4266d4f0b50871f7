import { Injectable } from '@nestjs/common';
import type { CreditAct } from '../../generated/prisma/client';
import { DomainError } from '../../domain';
import { AppError } from '../../platform/common/errors';
import type { Tx } from '../../platform/database/prisma.service';

/** A room's check of an act's terms against the records now: throws what the record would answer. */
export type ApprovalCheck = (tx: Tx, asked: AskedAct, when: 'ASKED' | 'APPROVED') => Promise<void>;

/** A credit request's act as its room checks it: the property it is at, and its terms. */
export interface AskedAct {
  readonly propertyId: string;
  readonly terms: Readonly<Record<string, unknown>>;
}

/**
 * What a room that records an act quoting an approved credit request (docs/domain/credit.md) checks
 * when the request is asked for and again when it is approved, so that two persons never approve
 * what the record would refuse: the junkets room, that a statement's period has ended, is not
 * locked, and its figures still give the digest the junket saw; a junket's repayment, that it owes as much;
 * the rolling room, that a programme version may start then and is within the caps in force. The room
 * registers its check at start; the credit room runs it. Neither imports the other.
 */
@Injectable()
export class ApprovalChecks {
  private readonly checks = new Map<CreditAct, ApprovalCheck>();

  register(act: CreditAct, check: ApprovalCheck): void {
    this.checks.set(act, check);
  }

  /**
   * The room's check of `act`, if it has one. Asked, its refusal is the record's own (the code the
   * record would answer); approved, it is CREDIT_REQUEST_STALE: what was asked no longer holds, so the
   * request is rejected and asked again.
   */
  async check(act: CreditAct, tx: Tx, asked: AskedAct, when: 'ASKED' | 'APPROVED'): Promise<void> {
    const check = this.checks.get(act);
    if (!check) return;
    try {
      await check(tx, asked, when);
    } catch (e) {
      if (when === 'APPROVED' && (e instanceof AppError || e instanceof DomainError) && e.code !== 'CREDIT_REQUEST_STALE')
        throw new AppError('CREDIT_REQUEST_STALE', `${e.message.replace(/[.:]?\s*$/, '')}. It no longer holds as asked: reject this request and ask again`);
      throw e;
    }
  }
}
