/**
 * WeChat's error codes as a caller of D3–D10 should read them (WeChat's own `errmsg` is terse and
 * often Chinese); the raw errcode/errmsg stay in the answers that carry them.
 */
export const WECHAT_ERRORS: Record<number, string> = {
  [-1]: "WeChat is busy (system error); the call was retried and still failed: try again in a moment",
  40001: "WeChat refused the access token (invalid credential); it has been dropped and will be fetched again: retry",
  40097: "WeChat refused the call's arguments as invalid (its errmsg says which)",
  42001: "The access token had expired; it has been dropped and will be fetched again: retry",
  53301: "The mini-program has as many service categories as WeChat allows (5): delete one first",
  53303:
    "WeChat refused the categories: give a first-level category with one of its own second-level ones, and the qualification a sensitive one needs",
  53304: "The mini-program has that service category already",
  61039: "WeChat has not finished checking the committed code yet: try again in a minute",
  85008: "The mini-program has no approved service category: add one and wait for its approval before submitting",
  85009: "A version of this mini-program is already under audit: wait for its result (D8) before submitting again",
  85012: "WeChat does not know that audit id for this mini-program",
  85013: "WeChat refused the ext_json of the commit: it must be valid JSON that the template accepts",
  85016: "Too many server domains: WeChat keeps at most 200 of each kind",
  85019: "There is no version under audit for this mini-program",
  85020: "The audit has not passed: only a version whose audit passed can be released",
  85021: "The visit status cannot change now: the mini-program has no version online",
  85052: "This version is released already",
  85079: "A phased release needs a version online already: release the first version in full (D9)",
  85080: "No passed audit waits for release: only a version whose audit passed, not yet released, can be released in phases",
  85081: "The phased release percentage must be a whole number from 1 to 100",
  85082: "A phased release only grows: give a percentage higher than the current one",
  85085:
    "The platform's audit submissions for this month are used up (all its mini-programs share them): see the quota, and ask WeChat for a temporary quota or wait for next month",
  85086: "No code has been committed yet: commit the code (D5) before submitting it for audit",
  86004: "That is not a valid WeChat id for a tester",
  86069: "The privacy guide lacks a required field: give how users are told (notice method) and at least one contact",
  86074: "There is no privacy guide online yet to change: set the guide of the version in development (privacy_ver 2) and release it first",
  87011: "A phased release is running: revert or finish it before rolling back",
  87012: "This version cannot be rolled back: there is no earlier version, or this release was rolled back once already",
  87013: "The audit cannot be withdrawn now: WeChat allows 5 withdrawals a day and 10 a month",
  89029: "Too many webview (business) domains: WeChat keeps at most 100",
  89248: "The mini-program's privacy settings are incomplete: set the privacy guide for every privacy interface its code uses before the audit",
  89402: "That audit is not waiting in WeChat's queue (not submitted, withdrawn or already decided): only an audit in progress can be expedited",
  89403: "WeChat does not expedite this kind of audit",
  89404: "This audit has been expedited already: WeChat expedites an audit once",
  89405: "The platform's expedites for this month are used up (all its mini-programs share them): the audit goes on at its usual pace; see the quota",
};

/** A failed call to WeChat, with what it said. */
export class WeChatError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    /** The upstream's HTTP status, when the failure was not a WeChat answer. */
    readonly httpStatus?: number,
  ) {
    super(WECHAT_ERRORS[errcode] ?? `WeChat answered errcode ${errcode}: ${errmsg}`);
  }

  /** The access token was refused: drop it and fetch another. */
  get tokenRefused(): boolean {
    return this.errcode === 40001 || this.errcode === 42001;
  }
}

/** WeChat did not answer (timeout, network, 5xx): nothing is known of the call's outcome. */
export class WeChatUnavailable extends Error {}
