/**
 * Words that say nothing about what a text is about. English: the usual function words (articles,
 * pronouns, auxiliaries, prepositions, conjunctions, contraction leftovers such as the "s" of "'s")
 * plus the filler of a request ("please help me use…"). Chinese and Japanese: function words as
 * `Intl.Segmenter` cuts them; they split a run of characters into stretches for bigrams.
 */

const ENGLISH = `
a about above after again against all also am an and any are aren as at be because been before being below
between both but by can cannot could couldn did didn do does doesn doing don down during each either else etc
ever every few for from further had hadn has hasn have haven having he her here hers herself him himself his how
however i if in into is isn it its itself just let ll me might more most must mustn my myself no nor not now of
off on once only or other ought our ours ourselves out over own per please re same shall shan she should shouldn
so some such than that the their theirs them themselves then there these they this those though through thus to
too under until up upon us use used uses using ve very via was wasn we were weren what whatever when whenever
where whether which while who whom whose why will with within without won would wouldn yet you your yours
yourself yourselves s t d m o y

want wants wanted need needs needed help helps like lets via e g ie eg
`;

const CJK = `
的 地 得 了 着 过 吗 呢 吧 啊 呀 嘛 哦 把 被 我 我们 你 你们 您 他 她 它 他们 她们 它们 这 那 这个 那个 这些 那些 这样 那样
请 帮 帮我 帮忙 给 让 就 都 也 很 还 个 些 一个 一些 一下 怎么 怎样 如何 什么 哪 哪个 哪些 为什么 和 与 及 或 或者 在 是 有
没有 有没有 没 要 想 需要 可以 能 能够 会 应该 如果 然后 并 并且 而 但 但是 之 其 从 到 对 于 用 使用 里 中 上 下 吗 么 呗
の を は が に で と て た だ し ます です する して した ください こと もの これ それ あれ この その あの よう ように お願い
`;

const STOPWORDS = new Set([...ENGLISH.split(/\s+/), ...CJK.split(/\s+/)].filter(Boolean));

/** True for a word (lower case) that carries no meaning for search. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
