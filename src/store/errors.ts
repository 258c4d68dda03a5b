/** A stored value that does not have the expected type (a corrupt row or a foreign schema). */
export class StoreDataError extends Error {
  override readonly name = 'StoreDataError';
}

/** A unique index refused a row: `field` names what was duplicated. */
export class UniqueViolationError extends Error {
  override readonly name = 'UniqueViolationError';

  constructor(readonly field: 'login' | 'email' | 'other') {
    super(`duplicate ${field}`);
  }
}

/** Store code used outside of a transaction's `tx` while that transaction owns the SQLite connection. */
export class TransactionMisuseError extends Error {
  override readonly name = 'TransactionMisuseError';

  constructor() {
    super('inside store.transaction(), use the tx argument: the store itself waits for the transaction to end');
  }
}
