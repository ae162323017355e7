/**
 * WeChat's error codes as a caller of D3–D10 should read them (WeChat's own `errmsg` is terse and
 * often Chinese); the raw errcode/errmsg stay in the answers that carry them.
 */
export const WECHAT_ERRORS: Record<number, string> = {
  [-1]: "WeChat is busy (system error); the call was retried and still failed: try again in a moment",
  40001: "WeChat refused the access token (invalid credential); it has been dropped and will be fetched again: retry",
  42001: "The access token had expired; it has been dropped and will be fetched again: retry",
  61039: "WeChat has not finished checking the committed code yet: submit the audit again in a few minutes",
  85009: "A version of this mini-program is already under audit: wait for its result (D8) before submitting again",
  85013: "WeChat refused the ext_json of the commit: it must be valid JSON that the template accepts",
  85019: "There is no version under audit for this mini-program",
  85020: "The audit has not passed: only a version whose audit passed can be released",
  85085: "Too many audit submissions lately (WeChat's limit for the platform): try again later",
  86004: "That is not a valid WeChat id for a tester",
  87013: "The audit can no longer be withdrawn: WeChat's withdrawal limit is reached",
  89248: "The mini-program's privacy settings are incomplete: fill them in on WeChat before the audit",
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
