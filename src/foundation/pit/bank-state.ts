/** A stake standing after a chemin de fer tie, as stored on the bank. */
export interface Standing {
  seat: number;
  amount: string;
  call: 'BANCO' | 'BANCO_SUIVI' | null;
  bystander: boolean;
}

/** A bank's running state as kept with each coup (money as text), so that a void can restore it. */
export interface BankState {
  stake: string;
  setAside: string;
  commission: string;
  bancoSuivi: number | null;
  standing: Standing[] | null;
  stakesAccepted: boolean;
  coups: number;
}
