/**
 * A small map of what customers ask about, in English and Chinese (Traditional first, Simplified
 * where it differs), for the built-in model and for retrieval: "What is your address?" and "The
 * workshop is at 12 Harbour Street" share no word but one concept. Term overlap alone found nothing
 * for such a paraphrase, and the model then quoted whatever shared a filler word (docs/decisions.md,
 * "The built-in model's answer composition"). No download, no model: a fixed list of the intents a
 * help desk hears every day.
 */

export interface Concept {
  id: string;
  /** Words and phrases that say it in English, matched on lower-cased text at word boundaries. */
  en: string[];
  /** Words that say it in Chinese, matched as substrings. */
  zh: string[];
  /** Words added to a retrieval query that names the concept, so the keyword index finds the other wordings. */
  search: string;
}

// The 27 member states: "Do you ship to Germany?" is answered by "every country in the European Union".
const EU_MEMBERS =
  "austria belgium bulgaria croatia cyprus czechia czech republic denmark estonia finland france germany " +
  "greece hungary ireland italy latvia lithuania luxembourg malta netherlands holland poland portugal romania " +
  "slovakia slovenia spain sweden";

export const CONCEPTS: Concept[] = [
  {
    id: "address",
    en: [
      "address",
      "addresses",
      "location",
      "located",
      "locate",
      "where are you",
      "where is your",
      "where's your",
      "where are your",
      "where can i find you",
      "find you",
      "find us",
      "directions",
      "street",
      "road",
      "avenue",
      "square",
    ],
    zh: ["地址", "位址", "位置", "位於", "位于", "在哪", "哪裡", "哪里", "地點", "地点", "怎麼去", "街", "路"],
    search: "address located street road 地址 位於 位置",
  },
  {
    id: "phone",
    en: [
      "phone",
      "phones",
      "telephone",
      "phone number",
      "telephone number",
      "call",
      "calling",
      "ring",
      "hotline",
      "by phone",
    ],
    zh: ["電話", "电话", "致電", "致电", "撥打", "拨打", "專線", "专线", "來電", "来电"],
    search: "phone telephone call hotline 電話 电话",
  },
  {
    id: "contact",
    en: ["contact", "contacts", "reach", "reach you", "get in touch", "e-mail", "email", "mail", "chat", "write to"],
    zh: ["聯絡", "联络", "聯繫", "联系", "客服", "信箱", "電子郵件", "电子邮件", "郵件", "邮件"],
    search: "contact reach email chat 聯絡 客服",
  },
  {
    id: "price",
    en: [
      "price",
      "prices",
      "cost",
      "costs",
      "costing",
      "fee",
      "fees",
      "how much",
      "expensive",
      "cheap",
      "rate",
      "rates",
      "tariff",
      "charge for",
      "free of charge",
      "free",
      "€",
      "$",
      "£",
      "eur",
      "euro",
      "euros",
      "dollar",
      "dollars",
    ],
    zh: [
      "價格",
      "价格",
      "價錢",
      "价钱",
      "多少錢",
      "多少钱",
      "費用",
      "费用",
      "收費",
      "收费",
      "免費",
      "免费",
      "元",
      "塊",
    ],
    search: "price cost costs fee 價格 費用 收費",
  },
  {
    id: "hours",
    en: [
      "hours",
      "opening hours",
      "open",
      "opens",
      "opening",
      "close",
      "closes",
      "closed",
      "closing",
      "what time",
      "when are you",
    ],
    zh: ["營業", "营业", "開門", "开门", "關門", "关门", "幾點", "几点", "開放", "开放", "休息"],
    search: "hours open opens closes 營業 時間",
  },
  {
    id: "shipping",
    en: [
      "ship",
      "ships",
      "shipped",
      "shipping",
      "shipment",
      "deliver",
      "delivers",
      "delivered",
      "delivery",
      "deliveries",
      "send",
      "sends",
      "parcel",
      "parcels",
      "package",
      "packages",
      "courier",
      "postage",
    ],
    zh: [
      "寄送",
      "運送",
      "运送",
      "配送",
      "送貨",
      "送货",
      "出貨",
      "出货",
      "運費",
      "运费",
      "物流",
      "包裹",
      "寄到",
      "快遞",
      "快递",
    ],
    search: "ship shipping delivery deliver 寄送 運送 配送",
  },
  {
    id: "returns",
    en: [
      "return",
      "returns",
      "returned",
      "returning",
      "refund",
      "refunds",
      "refunded",
      "money back",
      "exchange",
      "send back",
      "send it back",
    ],
    zh: ["退貨", "退货", "退款", "退換", "退换", "換貨", "换货", "退錢", "退钱", "退還", "退还"],
    search: "return returns refund 退貨 退款",
  },
  {
    id: "warranty",
    en: [
      "warranty",
      "warranties",
      "guarantee",
      "guaranteed",
      "defect",
      "defects",
      "defective",
      "broken",
      "faulty",
      "claim",
      "claims",
    ],
    zh: ["保固", "保修", "保證", "保证", "故障", "壞了", "坏了", "瑕疵"],
    search: "warranty guarantee defects 保固 保修",
  },
  {
    id: "payment",
    en: [
      "pay",
      "pays",
      "paying",
      "payment",
      "payments",
      "card",
      "cards",
      "credit card",
      "debit card",
      "cash",
      "paypal",
      "visa",
      "mastercard",
      "invoice",
    ],
    zh: ["付款", "支付", "刷卡", "信用卡", "現金", "现金", "付費", "付费", "發票", "发票"],
    search: "pay payment card 付款 支付",
  },
  {
    id: "duration",
    en: [
      "how long",
      "how many days",
      "how soon",
      "how quickly",
      "how fast",
      "day",
      "days",
      "week",
      "weeks",
      "month",
      "months",
      "year",
      "years",
    ],
    zh: ["多久", "幾天", "几天", "多長時間", "多长时间", "天內", "天内", "工作天", "工作日", "年", "個月", "个月"],
    search: "days weeks 天 工作天",
  },
  {
    id: "rental",
    en: ["rent", "rents", "rented", "renting", "rental", "rentals", "hire", "hires", "borrow", "lease"],
    zh: ["租", "出租", "租借", "租用"],
    search: "rent rental hire 出租 租借",
  },
  {
    id: "bicycle",
    en: ["bike", "bikes", "bicycle", "bicycles", "e-bike", "e-bikes", "cycle", "cycles"],
    zh: ["腳踏車", "脚踏车", "自行車", "自行车", "單車", "单车"],
    search: "bike bikes bicycle 自行車 單車",
  },
  {
    id: "product",
    en: ["product", "products", "item", "items", "goods", "article", "articles", "merchandise"],
    zh: ["商品", "產品", "产品", "貨品", "货品", "物品"],
    search: "product item 商品 產品",
  },
  {
    id: "eu",
    en: [
      "european union",
      "eu",
      ...EU_MEMBERS.split(" ").filter((w) => w !== "czech" && w !== "republic"),
      "czech republic",
    ],
    zh: [
      "歐盟",
      "欧盟",
      "德國",
      "德国",
      "法國",
      "法国",
      "義大利",
      "意大利",
      "西班牙",
      "荷蘭",
      "荷兰",
      "比利時",
      "比利时",
      "奧地利",
      "奥地利",
      "波蘭",
      "波兰",
      "瑞典",
      "丹麥",
      "丹麦",
      "芬蘭",
      "芬兰",
      "愛爾蘭",
      "爱尔兰",
      "葡萄牙",
      "希臘",
      "希腊",
    ],
    search: "european union 歐盟",
  },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Longest first, so "phone number" is taken whole before "phone"; a symbol has no word boundary. The words that start
// with a letter share one pair of boundaries: a `\p{...}` class costs the regular expression's parser about as much
// as a word, and one pair a word made this module's load a quarter of the worker's start-up (`npm run bench --
// startup`). A word that starts with a letter and one that does not never match at the same place, so the two groups
// match what the words one by one did.
const englishPattern = (words: string[]) => {
  const sorted = [...words].sort((a, b) => b.length - a.length);
  const alternatives = (ws: string[]) => ws.map(escapeRegExp).join("|");
  const lettered = sorted.filter((w) => /^\p{L}/u.test(w));
  const symbols = sorted.filter((w) => !/^\p{L}/u.test(w));
  const parts = [
    ...(lettered.length ? [`(?<![\\p{L}\\p{N}])(?:${alternatives(lettered)})(?![\\p{L}\\p{N}])`] : []),
    ...(symbols.length ? [alternatives(symbols)] : []),
  ];
  return new RegExp(parts.join("|"), "gu");
};
const chinesePattern = (words: string[]) =>
  new RegExp(
    [...words]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "gu",
  );

type Compiled = { concept: Concept; en: RegExp; zh: RegExp }[];
let compiled: Compiled | undefined;
/** The concepts' patterns, made on first use: a worker that never reads a concept does not pay for them at start-up. */
const compiledConcepts = (): Compiled =>
  (compiled ??= CONCEPTS.map((c) => ({ concept: c, en: englishPattern(c.en), zh: chinesePattern(c.zh) })));

/** What a text says in words of the map: each concept it names, with the words that named it. */
export function conceptsIn(text: string): Map<string, string[]> {
  const lower = text.normalize("NFKC").toLowerCase();
  const found = new Map<string, string[]>();
  for (const { concept, en } of compiledConcepts()) {
    // Chinese words may overlap (在哪裡 holds 在哪 and 哪裡): each found counts.
    const words = [...lower.matchAll(en)].map((m) => m[0]).concat(concept.zh.filter((w) => lower.includes(w)));
    if (words.length) found.set(concept.id, words);
  }
  return found;
}

const CJK = /[\u3400-\u9fff]/u;

/**
 * The concepts' other wordings, for a retrieval query ("" when the text names none), in the text's
 * script only: an English question searching with Chinese words would find the Chinese pages.
 */
export function conceptSearchWords(text: string): string {
  const found = conceptsIn(text);
  const chinese = CJK.test(text);
  return CONCEPTS.filter((c) => found.has(c.id))
    .flatMap((c) => c.search.split(" ").filter((w) => CJK.test(w) === chinese))
    .join(" ");
}

/** The concept a text names first, of those not in `skip`: what a sentence is about, as its subject comes first. */
export function leadingConcept(text: string, skip: Set<string>): string | null {
  const lower = text.normalize("NFKC").toLowerCase();
  let best: { id: string; at: number } | null = null;
  for (const { concept, en, zh } of compiledConcepts()) {
    if (skip.has(concept.id)) continue;
    for (const m of [...lower.matchAll(en), ...lower.matchAll(zh)])
      if (!best || m.index < best.at) best = { id: concept.id, at: m.index };
  }
  return best?.id ?? null;
}
