import type { DataSource, RateLevel, TaxType } from "../src/tax/schema";

/**
 * The published tax rates the service starts with, as in force on SEED_VERSION_DATE. History is
 * kept from 2020 on: a regime's periods are listed oldest first, and a rate unchanged since before
 * 2020 starts on 2020-01-01. The refresh jobs keep the table current from here. What changed in
 * the sweep of 2026-11, and on whose word, is in seed/SOURCES.md.
 */
export const SEED_VERSION_DATE = "2026-11-22";

export type Rates = Partial<Record<RateLevel, number>>;
/** A period's `source` names where its change was published; its records carry it as `sourceUrl`. */
export type Period = [from: string, rates: Rates, source?: string];

export interface TaxId {
  format: string;
  /** Anchored, matched against the number upper-cased with spaces, dots, dashes and slashes removed. */
  pattern: string;
}

export interface TaxRegime {
  country: string;
  region?: { code: string; name: string };
  taxType: TaxType;
  nameEn: string;
  nameLocal?: string;
  abbr?: string;
  periods: Period[];
  taxId?: TaxId;
  dataSource: DataSource;
  sourceUrl: string;
  applicableScope?: string;
  filingFrequency?: string;
}

const SINCE = "2020-01-01";
const EU_SOURCE = "https://ec.europa.eu/taxation_customs/tedb/";
const OECD_VAT_SOURCE = "https://www.oecd.org/en/topics/sub-issues/consumption-tax-trends.html";
const OECD_CIT_SOURCE = "https://www.oecd.org/en/data/datasets/corporate-tax-statistics-database.html";
const ENCYCLOPEDIA_SOURCE = "https://en.wikipedia.org/wiki/Value-added_tax#Tables_of_VAT_rates";
const US_SOURCE = "https://taxfoundation.org/data/all/state/sales-tax-rates/";
const CA_SOURCE = "https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/gst-hst-businesses/charge-collect-which-rate.html";

/** Sources of single changes (seed/SOURCES.md). */
const SOURCE = {
  // Law No. 05/L-037 on VAT (in force since 2015-09-01): 18 % standard, 8 % reduced.
  XK: "https://www.atk-ks.org/en/",
  AT: "https://www.bmf.gv.at/themen/steuern/umsatzsteuer.html",
  BS: "https://inlandrevenue.finance.gov.bs/value-added-tax/",
  BT: "https://www.drc.gov.bt/",
  DC: "https://otr.cfo.dc.gov/page/sales-and-use-tax",
  FI: "https://www.vero.fi/en/businesses-and-corporations/taxes-and-charges/vat/rates-of-vat/",
  KR: "https://www.nts.go.kr/english/main.do",
  LT: "https://www.vmi.lt/",
  PK: "https://www.fbr.gov.pk/",
  PT: "https://info.portaldasfinancas.gov.pt/",
  RU: "https://www.nalog.gov.ru/",
  SK: "https://www.financnasprava.sk/",
  ZW: "https://www.zimra.co.zw/",
} as const;

const id = (format: string, pattern: string): TaxId => ({ format, pattern });

/** Business tax ids by country: the VAT number where there is one. */
export const TAX_IDS: Record<string, TaxId> = {
  AT: id("ATU + 8 digits", "^ATU\\d{8}$"),
  BE: id("BE + 10 digits starting 0 or 1", "^BE[01]\\d{9}$"),
  BG: id("BG + 9 or 10 digits", "^BG\\d{9,10}$"),
  CY: id("CY + 8 digits + 1 letter", "^CY\\d{8}[A-Z]$"),
  CZ: id("CZ + 8 to 10 digits", "^CZ\\d{8,10}$"),
  DE: id("DE + 9 digits", "^DE\\d{9}$"),
  DK: id("DK + 8 digits", "^DK\\d{8}$"),
  EE: id("EE + 9 digits", "^EE\\d{9}$"),
  ES: id("ES + 9 characters, first and last may be letters", "^ES[A-Z0-9]\\d{7}[A-Z0-9]$"),
  FI: id("FI + 8 digits", "^FI\\d{8}$"),
  FR: id("FR + 2 characters + 9 digits (SIREN)", "^FR[A-HJ-NP-Z0-9]{2}\\d{9}$"),
  GR: id("EL + 9 digits", "^EL\\d{9}$"),
  HR: id("HR + 11 digits (OIB)", "^HR\\d{11}$"),
  HU: id("HU + 8 digits", "^HU\\d{8}$"),
  IE: id("IE + 7 digits + 1 or 2 letters", "^IE(\\d{7}[A-W][A-IW]?|\\d[A-Z+*]\\d{5}[A-W])$"),
  IT: id("IT + 11 digits", "^IT\\d{11}$"),
  LT: id("LT + 9 or 12 digits", "^LT(\\d{9}|\\d{12})$"),
  LU: id("LU + 8 digits", "^LU\\d{8}$"),
  LV: id("LV + 11 digits", "^LV\\d{11}$"),
  MT: id("MT + 8 digits", "^MT\\d{8}$"),
  NL: id("NL + 9 digits + B + 2 digits (01 to 99)", "^NL\\d{9}B(0[1-9]|[1-9]\\d)$"),
  PL: id("PL + 10 digits (NIP)", "^PL\\d{10}$"),
  PT: id("PT + 9 digits (NIF)", "^PT\\d{9}$"),
  RO: id("RO + 2 to 10 digits (CUI)", "^RO\\d{2,10}$"),
  SE: id("SE + 10 digits + 01", "^SE\\d{10}01$"),
  SI: id("SI + 8 digits", "^SI\\d{8}$"),
  SK: id("SK + 10 digits", "^SK\\d{10}$"),
  AD: id("NRT: letter + 6 digits + letter", "^[ACDEFGLOPU]\\d{6}[A-Z]$"),
  AE: id("TRN: 15 digits starting 100", "^100\\d{12}$"),
  AL: id("NIPT: letter + 8 digits + letter", "^[JKL]\\d{8}[A-Z]$"),
  AR: id("CUIT: 11 digits", "^\\d{11}$"),
  AU: id("ABN: 11 digits", "^\\d{11}$"),
  BY: id("UNP: 9 digits", "^\\d{9}$"),
  CA: id("Business number: 9 digits, optionally RT + 4 digits", "^\\d{9}(RT\\d{4})?$"),
  CH: id("UID: CHE + 9 digits, optionally MWST/TVA/IVA", "^CHE\\d{9}(MWST|TVA|IVA)?$"),
  CL: id("RUT: 7 or 8 digits + check digit or K", "^\\d{7,8}[0-9K]$"),
  CN: id("Unified social credit code: 18 characters", "^[0-9A-HJ-NPQRTUWXY]{2}\\d{6}[0-9A-HJ-NPQRTUWXY]{10}$"),
  CO: id("NIT: 9 or 10 digits", "^\\d{9,10}$"),
  CR: id("Cédula jurídica: 10 digits", "^\\d{10}$"),
  EC: id("RUC: 13 digits ending 001", "^\\d{10}001$"),
  GB: id("GB (or XI for Northern Ireland) + 9 or 12 digits, or GD/HA + 3 digits", "^(GB|XI)(\\d{9}|\\d{12}|GD\\d{3}|HA\\d{3})$"),
  ID: id("NPWP: 15 or 16 digits", "^\\d{15,16}$"),
  IL: id("9 digits", "^\\d{9}$"),
  IN: id("GSTIN: 15 characters", "^\\d{2}[A-Z]{5}\\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$"),
  IS: id("VSK number: 5 or 6 digits", "^\\d{5,6}$"),
  JP: id("Invoice registration number: T + 13 digits", "^T\\d{13}$"),
  KE: id("KRA PIN: letter + 9 digits + letter", "^[AP]\\d{9}[A-Z]$"),
  KR: id("Business registration number: 10 digits", "^\\d{10}$"),
  KZ: id("BIN: 12 digits", "^\\d{12}$"),
  LI: id("Liechtenstein VAT number: 5 digits", "^\\d{5}$"),
  MC: id("FR + 2 characters + 9 digits", "^FR[A-HJ-NP-Z0-9]{2}\\d{9}$"),
  MD: id("IDNO: 13 digits", "^\\d{13}$"),
  ME: id("PIB: 8 digits", "^\\d{8}$"),
  MK: id("EDB: MK + 13 digits", "^(MK)?\\d{13}$"),
  MX: id("RFC: 3 or 4 letters + 6 digits + 3 characters", "^[A-Z&Ñ]{3,4}\\d{6}[A-Z0-9]{3}$"),
  MY: id("SST registration: letter + 2 digits + 4 digits + 8 digits", "^[A-Z]\\d{2}\\d{4}\\d{8}$"),
  NO: id("Organisation number: 9 digits, optionally NO … MVA", "^(NO)?\\d{9}(MVA)?$"),
  NZ: id("IRD / GST number: 8 or 9 digits", "^\\d{8,9}$"),
  PE: id("RUC: 11 digits", "^(10|15|17|20)\\d{9}$"),
  PH: id("TIN: 9 or 12 digits", "^\\d{9}(\\d{3})?$"),
  PK: id("NTN: 7 digits + check digit", "^\\d{7}\\d?$"),
  PY: id("RUC: 6 to 8 digits + check digit", "^\\d{6,8}\\d$"),
  RS: id("PIB: 9 digits", "^\\d{9}$"),
  RU: id("INN: 10 digits (companies) or 12 (individuals)", "^(\\d{10}|\\d{12})$"),
  SA: id("VAT number: 15 digits starting and ending 3", "^3\\d{13}3$"),
  SG: id("GST registration: UEN or M + 8 digits + letter", "^(\\d{8}[A-Z]|\\d{9}[A-Z]|[TSR]\\d{2}[A-Z]{2}\\d{4}[A-Z]|M[0-9A-Z]\\d{7}[A-Z])$"),
  TH: id("Tax id: 13 digits", "^\\d{13}$"),
  TR: id("VKN: 10 digits", "^\\d{10}$"),
  TW: id("Unified business number: 8 digits", "^\\d{8}$"),
  UA: id("EDRPOU: 8 digits (companies), or 10-digit individual number", "^(\\d{8}|\\d{10}|\\d{12})$"),
  UY: id("RUT: 12 digits", "^\\d{12}$"),
  VE: id("RIF: letter + 9 digits", "^[VEJPG]\\d{9}$"),
  VN: id("MST: 10 digits, optionally + 3-digit branch", "^\\d{10}(\\d{3})?$"),
  ZA: id("VAT number: 10 digits starting 4", "^4\\d{9}$"),
};

function regime(country: string, taxType: TaxType, periods: Period[], more: Omit<Partial<TaxRegime>, "periods">): TaxRegime {
  return {
    country,
    taxType,
    periods,
    nameEn: "Value-added tax",
    abbr: taxType === "VAT" ? "VAT" : taxType,
    taxId: TAX_IDS[country],
    dataSource: "ENCYCLOPEDIA",
    sourceUrl: ENCYCLOPEDIA_SOURCE,
    ...more,
  };
}

const steady = (rates: Rates): Period[] => [[SINCE, rates]];

/** EU members: [country, local name, local abbreviation, periods]. */
const EU_VAT: [string, string, string, Period[]][] = [
  [
    "AT",
    "Umsatzsteuer",
    "USt",
    [
      [SINCE, { standard: 20, reduced2: 13, reduced1: 10, parking: 13 }],
      // 4.9 % on basic foods (milk, bread, eggs, fruit and vegetables).
      ["2026-07-01", { standard: 20, reduced2: 13, reduced1: 10, parking: 13, super_reduced: 4.9 }, SOURCE.AT],
    ],
  ],
  ["BE", "Belasting over de toegevoegde waarde", "BTW", steady({ standard: 21, reduced2: 12, reduced1: 6, parking: 12 })],
  ["BG", "Данък върху добавената стойност", "ДДС", steady({ standard: 20, reduced: 9 })],
  ["CY", "Φόρος Προστιθέμενης Αξίας", "ΦΠΑ", steady({ standard: 19, reduced2: 9, reduced1: 5 })],
  [
    "CZ",
    "Daň z přidané hodnoty",
    "DPH",
    [
      [SINCE, { standard: 21, reduced2: 15, reduced1: 10 }],
      ["2024-01-01", { standard: 21, reduced: 12 }],
    ],
  ],
  [
    "DE",
    "Umsatzsteuer",
    "USt",
    [
      [SINCE, { standard: 19, reduced: 7 }],
      ["2020-07-01", { standard: 16, reduced: 5 }],
      ["2021-01-01", { standard: 19, reduced: 7 }],
    ],
  ],
  ["DK", "Merværdiafgift", "moms", steady({ standard: 25 })],
  [
    "EE",
    "Käibemaks",
    "km",
    [
      [SINCE, { standard: 20, reduced: 9 }],
      ["2024-01-01", { standard: 22, reduced2: 9, reduced1: 5 }],
      ["2025-01-01", { standard: 22, reduced2: 13, reduced1: 9 }],
      ["2025-07-01", { standard: 24, reduced2: 13, reduced1: 9 }],
    ],
  ],
  ["ES", "Impuesto sobre el Valor Añadido", "IVA", steady({ standard: 21, reduced: 10, super_reduced: 4 })],
  [
    "FI",
    "Arvonlisävero",
    "ALV",
    [
      [SINCE, { standard: 24, reduced2: 14, reduced1: 10 }],
      ["2024-09-01", { standard: 25.5, reduced2: 14, reduced1: 10 }],
      ["2026-01-01", { standard: 25.5, reduced2: 13.5, reduced1: 10 }, SOURCE.FI],
    ],
  ],
  ["FR", "Taxe sur la valeur ajoutée", "TVA", steady({ standard: 20, reduced2: 10, reduced1: 5.5, super_reduced: 2.1 })],
  ["GR", "Φόρος Προστιθέμενης Αξίας", "ΦΠΑ", steady({ standard: 24, reduced2: 13, reduced1: 6 })],
  ["HR", "Porez na dodanu vrijednost", "PDV", steady({ standard: 25, reduced2: 13, reduced1: 5 })],
  ["HU", "Általános forgalmi adó", "ÁFA", steady({ standard: 27, reduced2: 18, reduced1: 5 })],
  [
    "IE",
    "Cáin Bhreisluacha",
    "CBL",
    [
      [SINCE, { standard: 23, reduced2: 13.5, reduced1: 9, super_reduced: 4.8, parking: 13.5, zero: 0 }],
      ["2020-09-01", { standard: 21, reduced2: 13.5, reduced1: 9, super_reduced: 4.8, parking: 13.5, zero: 0 }],
      ["2021-03-01", { standard: 23, reduced2: 13.5, reduced1: 9, super_reduced: 4.8, parking: 13.5, zero: 0 }],
    ],
  ],
  ["IT", "Imposta sul valore aggiunto", "IVA", steady({ standard: 22, reduced2: 10, reduced1: 5, super_reduced: 4 })],
  [
    "LT",
    "Pridėtinės vertės mokestis",
    "PVM",
    [
      [SINCE, { standard: 21, reduced2: 9, reduced1: 5 }],
      ["2026-01-01", { standard: 21, reduced2: 12, reduced1: 5 }, SOURCE.LT],
    ],
  ],
  [
    "LU",
    "Taxe sur la valeur ajoutée",
    "TVA",
    [
      [SINCE, { standard: 17, reduced: 8, super_reduced: 3, parking: 14 }],
      ["2023-01-01", { standard: 16, reduced: 7, super_reduced: 3, parking: 13 }],
      ["2024-01-01", { standard: 17, reduced: 8, super_reduced: 3, parking: 14 }],
    ],
  ],
  ["LV", "Pievienotās vērtības nodoklis", "PVN", steady({ standard: 21, reduced2: 12, reduced1: 5 })],
  ["MT", "Taxxa fuq il-Valur Miżjud", "VAT", steady({ standard: 18, reduced2: 7, reduced1: 5 })],
  ["NL", "Omzetbelasting", "BTW", steady({ standard: 21, reduced: 9 })],
  ["PL", "Podatek od towarów i usług", "PTU", steady({ standard: 23, reduced2: 8, reduced1: 5 })],
  ["PT", "Imposto sobre o Valor Acrescentado", "IVA", steady({ standard: 23, reduced2: 13, reduced1: 6, parking: 13 })],
  [
    "RO",
    "Taxa pe valoarea adăugată",
    "TVA",
    [
      [SINCE, { standard: 19, reduced2: 9, reduced1: 5 }],
      ["2025-08-01", { standard: 21, reduced: 11 }],
    ],
  ],
  ["SE", "Mervärdesskatt", "moms", steady({ standard: 25, reduced2: 12, reduced1: 6 })],
  ["SI", "Davek na dodano vrednost", "DDV", steady({ standard: 22, reduced2: 9.5, reduced1: 5 })],
  [
    "SK",
    "Daň z pridanej hodnoty",
    "DPH",
    [
      [SINCE, { standard: 20, reduced: 10 }],
      ["2025-01-01", { standard: 23, reduced2: 19, reduced1: 5 }],
    ],
  ],
];

const swissRates: Period[] = [
  [SINCE, { standard: 7.7, parking: 3.7, reduced: 2.5 }],
  ["2024-01-01", { standard: 8.1, parking: 3.8, reduced: 2.6 }],
];

/** OECD members outside the EU that levy a VAT or GST nationally. */
const OECD_NON_EU_VAT: TaxRegime[] = [
  regime("AU", "GST", steady({ standard: 10, zero: 0 }), { nameEn: "Goods and services tax", abbr: "GST" }),
  regime("CA", "GST", steady({ standard: 5, zero: 0 }), {
    nameEn: "Goods and services tax",
    nameLocal: "Taxe sur les produits et services",
    abbr: "GST",
    sourceUrl: CA_SOURCE,
    applicableScope: "Federal GST; HST provinces charge the harmonized rate instead (see the regions)",
  }),
  regime("CH", "VAT", swissRates, { nameLocal: "Mehrwertsteuer", abbr: "MWST" }),
  regime("CL", "VAT", steady({ standard: 19 }), { nameLocal: "Impuesto al Valor Agregado", abbr: "IVA" }),
  regime("CO", "VAT", steady({ standard: 19, reduced: 5 }), { nameLocal: "Impuesto al Valor Agregado", abbr: "IVA" }),
  regime("CR", "VAT", steady({ standard: 13, reduced2: 4, reduced1: 1 }), { nameLocal: "Impuesto al Valor Agregado", abbr: "IVA" }),
  regime("GB", "VAT", steady({ standard: 20, reduced: 5, zero: 0 }), {}),
  regime(
    "IL",
    "VAT",
    [
      [SINCE, { standard: 17 }],
      ["2025-01-01", { standard: 18 }],
    ],
    { nameLocal: "מס ערך מוסף", abbr: "מע״מ" },
  ),
  regime("IS", "VAT", steady({ standard: 24, reduced: 11 }), { nameLocal: "Virðisaukaskattur", abbr: "VSK" }),
  regime("JP", "ConsumptionTax", steady({ standard: 10, reduced: 8 }), {
    nameEn: "Consumption tax",
    nameLocal: "消費税",
    abbr: "JCT",
    applicableScope: "10% (7.8% national + 2.2% local); 8% reduced rate for food and beverages and newspapers",
  }),
  regime("KR", "VAT", steady({ standard: 10, zero: 0 }), { nameLocal: "부가가치세" }),
  regime("MX", "VAT", steady({ standard: 16, reduced: 8, zero: 0 }), {
    nameLocal: "Impuesto al Valor Agregado",
    abbr: "IVA",
    applicableScope: "8% in the northern and southern border regions; 0% for basic food and medicines",
  }),
  regime("NO", "VAT", steady({ standard: 25, reduced2: 15, reduced1: 12 }), { nameLocal: "Merverdiavgift", abbr: "MVA" }),
  regime("NZ", "GST", steady({ standard: 15 }), { nameEn: "Goods and services tax", abbr: "GST" }),
  regime(
    "TR",
    "VAT",
    [
      [SINCE, { standard: 18, reduced2: 8, reduced1: 1 }],
      ["2023-07-10", { standard: 20, reduced2: 10, reduced1: 1 }],
    ],
    { nameLocal: "Katma değer vergisi", abbr: "KDV" },
  ),
].map((r) => ({ ...r, dataSource: "OECD" as const, sourceUrl: r.sourceUrl === ENCYCLOPEDIA_SOURCE ? OECD_VAT_SOURCE : r.sourceUrl }));

type Other = [country: string, taxType: TaxType, abbr: string, periods: Period[]];

/** Every other country that levies a VAT or GST, from the encyclopedia tables. */
const OTHER_VAT: Other[] = [
  ["AD", "VAT", "IGI", steady({ standard: 4.5, reduced: 1 })],
  ["AE", "VAT", "VAT", steady({ standard: 5, zero: 0 })],
  ["AG", "VAT", "ABST", steady({ standard: 17 })],
  ["AL", "VAT", "TVSH", steady({ standard: 20, reduced: 6 })],
  ["AI", "GST", "GST", [["2022-01-01", { standard: 13 }]]],
  ["AM", "VAT", "AAH", steady({ standard: 20 })],
  ["AO", "VAT", "IVA", steady({ standard: 14 })],
  ["AR", "VAT", "IVA", steady({ standard: 21, reduced: 10.5 })],
  ["AZ", "VAT", "ƏDV", steady({ standard: 18 })],
  ["BA", "VAT", "PDV", steady({ standard: 17 })],
  ["BB", "VAT", "VAT", steady({ standard: 17.5 })],
  ["BD", "VAT", "VAT", steady({ standard: 15 })],
  ["BF", "VAT", "TVA", steady({ standard: 18 })],
  [
    "BH",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 5 }],
      ["2022-01-01", { standard: 10 }],
    ],
  ],
  ["BI", "VAT", "TVA", steady({ standard: 18 })],
  ["BJ", "VAT", "TVA", steady({ standard: 18 })],
  ["BO", "VAT", "IVA", steady({ standard: 13 })],
  [
    "BS",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 12 }],
      ["2022-01-01", { standard: 10 }, SOURCE.BS],
    ],
  ],
  ["BT", "GST", "GST", [["2026-01-01", { standard: 5 }, SOURCE.BT]]],
  ["BW", "VAT", "VAT", steady({ standard: 14 })],
  ["BY", "VAT", "НДС", steady({ standard: 20, reduced: 10 })],
  ["BZ", "GST", "GST", steady({ standard: 12.5 })],
  ["CD", "VAT", "TVA", steady({ standard: 16 })],
  ["CF", "VAT", "TVA", steady({ standard: 19 })],
  ["CG", "VAT", "TVA", steady({ standard: 18 })],
  ["CI", "VAT", "TVA", steady({ standard: 18, reduced: 9 })],
  ["CM", "VAT", "TVA", steady({ standard: 19.25 })],
  ["CV", "VAT", "IVA", steady({ standard: 15 })],
  ["DJ", "VAT", "TVA", steady({ standard: 10 })],
  ["DM", "VAT", "VAT", steady({ standard: 15 })],
  ["DO", "VAT", "ITBIS", steady({ standard: 18, reduced: 16 })],
  ["DZ", "VAT", "TVA", steady({ standard: 19, reduced: 9 })],
  [
    "EC",
    "VAT",
    "IVA",
    [
      [SINCE, { standard: 12, zero: 0 }],
      ["2024-04-01", { standard: 15, zero: 0 }],
    ],
  ],
  ["EG", "VAT", "VAT", steady({ standard: 14 })],
  ["ET", "VAT", "VAT", steady({ standard: 15 })],
  [
    "FJ",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 9 }],
      ["2023-08-01", { standard: 15 }],
      ["2025-08-01", { standard: 12.5 }],
    ],
  ],
  ["GA", "VAT", "TVA", steady({ standard: 18 })],
  ["GD", "VAT", "VAT", steady({ standard: 15 })],
  ["GE", "VAT", "დღგ", steady({ standard: 18 })],
  ["GH", "VAT", "VAT", steady({ standard: 15 })],
  ["GM", "VAT", "VAT", steady({ standard: 15 })],
  ["GN", "VAT", "TVA", steady({ standard: 18 })],
  ["GQ", "VAT", "IVA", steady({ standard: 15 })],
  ["GT", "VAT", "IVA", steady({ standard: 12 })],
  ["GY", "VAT", "VAT", steady({ standard: 14 })],
  ["HN", "VAT", "ISV", steady({ standard: 15 })],
  ["HT", "VAT", "TCA", steady({ standard: 10 })],
  [
    "ID",
    "VAT",
    "PPN",
    [
      [SINCE, { standard: 10 }],
      ["2022-04-01", { standard: 11 }],
      ["2025-01-01", { standard: 12 }],
    ],
  ],
  ["IM", "VAT", "VAT", steady({ standard: 20, reduced: 5, zero: 0 })],
  [
    "IN",
    "GST",
    "GST",
    [
      [SINCE, { standard: 18, reduced2: 12, reduced1: 5, zero: 0 }],
      ["2025-09-22", { standard: 18, reduced: 5, zero: 0 }],
    ],
  ],
  ["IR", "VAT", "VAT", steady({ standard: 10 })],
  ["JE", "GST", "GST", steady({ standard: 5 })],
  ["JM", "GST", "GCT", steady({ standard: 15 })],
  ["JO", "GST", "GST", steady({ standard: 16, reduced: 4 })],
  ["KE", "VAT", "VAT", steady({ standard: 16, reduced: 8, zero: 0 })],
  ["KG", "VAT", "НДС", steady({ standard: 12 })],
  ["KH", "VAT", "VAT", steady({ standard: 10 })],
  ["KI", "VAT", "VAT", steady({ standard: 12.5 })],
  ["KM", "VAT", "TVA", steady({ standard: 10 })],
  ["KN", "VAT", "VAT", steady({ standard: 17 })],
  [
    "KZ",
    "VAT",
    "НДС",
    [
      [SINCE, { standard: 12 }],
      ["2026-01-01", { standard: 16 }],
    ],
  ],
  ["LA", "VAT", "VAT", steady({ standard: 10 })],
  ["LB", "VAT", "TVA", steady({ standard: 11 })],
  ["LC", "VAT", "VAT", steady({ standard: 12.5 })],
  ["LI", "VAT", "MWST", swissRates],
  [
    "LK",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 8 }],
      ["2022-06-01", { standard: 12 }],
      ["2022-09-01", { standard: 15 }],
      ["2024-01-01", { standard: 18 }],
    ],
  ],
  ["LS", "VAT", "VAT", steady({ standard: 15 })],
  ["MA", "VAT", "TVA", steady({ standard: 20, reduced2: 10, reduced1: 7 })],
  ["MC", "VAT", "TVA", steady({ standard: 20, reduced2: 10, reduced1: 5.5, super_reduced: 2.1 })],
  ["MD", "VAT", "TVA", steady({ standard: 20, reduced: 8 })],
  ["ME", "VAT", "PDV", steady({ standard: 21, reduced: 7 })],
  ["MG", "VAT", "TVA", steady({ standard: 20 })],
  ["MK", "VAT", "ДДВ", steady({ standard: 18, reduced2: 10, reduced1: 5 })],
  ["ML", "VAT", "TVA", steady({ standard: 18 })],
  ["MN", "VAT", "НӨАТ", steady({ standard: 10 })],
  ["MR", "VAT", "TVA", steady({ standard: 16 })],
  ["MU", "VAT", "VAT", steady({ standard: 15 })],
  [
    "MV",
    "GST",
    "GST",
    [
      [SINCE, { standard: 6 }],
      ["2023-01-01", { standard: 8 }],
    ],
  ],
  ["MW", "VAT", "VAT", steady({ standard: 16.5 })],
  ["MY", "SalesTax", "SST", steady({ standard: 10, reduced: 5 })],
  ["MZ", "VAT", "IVA", steady({ standard: 16 })],
  ["NA", "VAT", "VAT", steady({ standard: 15 })],
  ["NE", "VAT", "TVA", steady({ standard: 19 })],
  [
    "NG",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 5 }],
      ["2020-02-01", { standard: 7.5 }],
    ],
  ],
  ["NI", "VAT", "IVA", steady({ standard: 15 })],
  ["NP", "VAT", "VAT", steady({ standard: 13 })],
  ["OM", "VAT", "VAT", [["2021-04-16", { standard: 5 }]]],
  ["PA", "VAT", "ITBMS", steady({ standard: 7 })],
  ["PE", "VAT", "IGV", steady({ standard: 18 })],
  ["PG", "GST", "GST", steady({ standard: 10 })],
  ["PH", "VAT", "VAT", steady({ standard: 12 })],
  [
    "PK",
    "GST",
    "GST",
    [
      [SINCE, { standard: 17 }],
      ["2023-02-14", { standard: 18 }, SOURCE.PK],
    ],
  ],
  ["PW", "GST", "PGST", [["2023-01-01", { standard: 10 }]]],
  ["PY", "VAT", "IVA", steady({ standard: 10, reduced: 5 })],
  ["RS", "VAT", "PDV", steady({ standard: 20, reduced: 10 })],
  [
    "RU",
    "VAT",
    "НДС",
    [
      [SINCE, { standard: 20, reduced: 10, zero: 0 }],
      ["2026-01-01", { standard: 22, reduced: 10, zero: 0 }, SOURCE.RU],
    ],
  ],
  ["RW", "VAT", "VAT", steady({ standard: 18 })],
  [
    "SA",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 5 }],
      ["2020-07-01", { standard: 15 }],
    ],
  ],
  ["SC", "VAT", "VAT", steady({ standard: 15 })],
  ["SD", "VAT", "VAT", steady({ standard: 17 })],
  [
    "SG",
    "GST",
    "GST",
    [
      [SINCE, { standard: 7 }],
      ["2023-01-01", { standard: 8 }],
      ["2024-01-01", { standard: 9 }],
    ],
  ],
  ["SL", "GST", "GST", steady({ standard: 15 })],
  ["SN", "VAT", "TVA", steady({ standard: 18, reduced: 10 })],
  ["SR", "VAT", "VAT", [["2023-01-01", { standard: 10 }]]],
  ["SV", "VAT", "IVA", steady({ standard: 13 })],
  ["SZ", "VAT", "VAT", steady({ standard: 15 })],
  ["TD", "VAT", "TVA", steady({ standard: 18 })],
  ["TG", "VAT", "TVA", steady({ standard: 18 })],
  ["TH", "VAT", "VAT", steady({ standard: 7 })],
  [
    "TJ",
    "VAT",
    "НДС",
    [
      [SINCE, { standard: 15 }],
      ["2025-01-01", { standard: 14 }],
    ],
  ],
  ["TM", "VAT", "VAT", steady({ standard: 15 })],
  ["TN", "VAT", "TVA", steady({ standard: 19, reduced2: 13, reduced1: 7 })],
  ["TO", "VAT", "CT", steady({ standard: 15 })],
  ["TT", "VAT", "VAT", steady({ standard: 12.5 })],
  ["TW", "VAT", "VAT", steady({ standard: 5 })],
  ["TZ", "VAT", "VAT", steady({ standard: 18 })],
  ["UA", "VAT", "ПДВ", steady({ standard: 20, reduced2: 14, reduced1: 7 })],
  ["UG", "VAT", "VAT", steady({ standard: 18 })],
  ["UY", "VAT", "IVA", steady({ standard: 22, reduced: 10 })],
  [
    "UZ",
    "VAT",
    "QQS",
    [
      [SINCE, { standard: 15 }],
      ["2023-01-01", { standard: 12 }],
    ],
  ],
  ["VC", "VAT", "VAT", steady({ standard: 16 })],
  ["VE", "VAT", "IVA", steady({ standard: 16, reduced: 8 })],
  ["VN", "VAT", "GTGT", steady({ standard: 10, reduced: 5 })],
  ["VU", "VAT", "VAT", steady({ standard: 15 })],
  ["WS", "VAT", "VAGST", steady({ standard: 15 })],
  ["XK", "VAT", "TVSH", [[SINCE, { standard: 18, reduced: 8 }, SOURCE.XK]]],
  ["ZA", "VAT", "VAT", steady({ standard: 15, zero: 0 })],
  ["ZM", "VAT", "VAT", steady({ standard: 16 })],
  [
    "ZW",
    "VAT",
    "VAT",
    [
      [SINCE, { standard: 14.5 }],
      ["2023-01-01", { standard: 15 }],
      ["2026-01-01", { standard: 15.5 }, SOURCE.ZW],
    ],
  ],
];

const CHINA_VAT = regime("CN", "VAT", steady({ standard: 13, reduced1: 9, reduced2: 6, super_reduced: 3, zero: 0 }), {
  nameLocal: "增值税",
  abbr: "VAT",
  dataSource: "CUSTOM",
  sourceUrl: "https://www.chinatax.gov.cn/",
  applicableScope:
    "13% goods; 9% transport, construction, real estate, basic farm produce; 6% modern services; 3% simplified levy of small-scale taxpayers; 0% exports",
  filingFrequency: "monthly or quarterly",
});

const CIT_SCOPE =
  "Combined statutory corporate income tax rate: central and sub-central government, surcharges included, the top rate where rates are progressive, as the OECD publishes it";

/**
 * Corporate income tax of the OECD members: the combined statutory rate of the OECD's Table II.1
 * (the series the `oecd` refresh job reads), so that Germany's trade tax, Portugal's surcharges and
 * Korea's local income tax are in, for every country alike. Figures to 2025 from the OECD as
 * compiled by the Tax Foundation; 2026 from the national sources (seed/SOURCES.md).
 */
const CORPORATE: [string, Period[], string?][] = [
  [
    "AT",
    [
      [SINCE, { standard: 25 }],
      ["2023-01-01", { standard: 24 }],
      ["2024-01-01", { standard: 23 }],
    ],
  ],
  ["AU", steady({ standard: 30 })],
  ["BE", steady({ standard: 25 })],
  [
    "CA",
    [
      [SINCE, { standard: 26.47 }],
      ["2021-01-01", { standard: 26.15 }],
      ["2022-01-01", { standard: 26.21 }],
      ["2024-01-01", { standard: 26.14 }],
      ["2025-01-01", { standard: 25.98 }],
    ],
    "Federal 15 % plus the provinces' general rates, averaged as the OECD does",
  ],
  [
    "CH",
    [
      [SINCE, { standard: 21.15 }],
      ["2021-01-01", { standard: 19.7 }],
      ["2023-01-01", { standard: 19.65 }],
      ["2024-01-01", { standard: 19.61 }],
    ],
    "Federal 8.5 % (on profit after tax) plus the cantonal and communal rates of Zurich, as the OECD publishes it",
  ],
  ["CL", steady({ standard: 27 })],
  [
    "CO",
    [
      [SINCE, { standard: 32 }],
      ["2021-01-01", { standard: 31 }],
      ["2022-01-01", { standard: 35 }],
    ],
  ],
  ["CR", steady({ standard: 30 })],
  [
    "CZ",
    [
      [SINCE, { standard: 19 }],
      ["2024-01-01", { standard: 21 }],
    ],
  ],
  [
    "DE",
    [
      [SINCE, { standard: 29.9 }],
      ["2021-01-01", { standard: 29.94 }],
      ["2022-01-01", { standard: 29.83 }],
      ["2023-01-01", { standard: 29.94 }],
      ["2024-01-01", { standard: 29.93 }],
      ["2025-01-01", { standard: 30.06 }],
    ],
    "Corporate income tax 15 % with the 5.5 % solidarity surcharge (15.825 %), plus the average municipal trade tax",
  ],
  ["DK", steady({ standard: 22 })],
  [
    "EE",
    [
      [SINCE, { standard: 20 }],
      ["2025-01-01", { standard: 22 }],
    ],
  ],
  ["ES", steady({ standard: 25 })],
  ["FI", steady({ standard: 20 })],
  [
    "FR",
    [
      [SINCE, { standard: 32.02 }],
      ["2021-01-01", { standard: 28.41 }],
      ["2022-01-01", { standard: 25.83 }],
      ["2025-01-01", { standard: 36.13 }],
    ],
    "25 % with the 3.3 % social contribution (25.83 %); from 2025 the top rate includes the exceptional contribution on the largest companies (turnover of EUR 3 billion or more)",
  ],
  [
    "GB",
    [
      [SINCE, { standard: 19 }],
      ["2023-04-01", { standard: 25 }],
    ],
  ],
  [
    "GR",
    [
      [SINCE, { standard: 24 }],
      ["2021-01-01", { standard: 22 }],
    ],
  ],
  ["HU", steady({ standard: 9 })],
  ["IE", steady({ standard: 12.5 })],
  ["IL", [[SINCE, { standard: 23 }]]],
  [
    "IS",
    [
      [SINCE, { standard: 20 }],
      ["2024-01-01", { standard: 21 }],
      ["2025-01-01", { standard: 20 }],
    ],
  ],
  ["IT", steady({ standard: 27.81 }), "IRES 24 % plus the regional IRAP at its standard 3.9 %, as the OECD combines them"],
  ["JP", steady({ standard: 29.74 }), "National corporation tax 23.2 % with the local taxes on income, as the OECD combines them"],
  [
    "KR",
    [
      [SINCE, { standard: 27.5 }],
      ["2023-01-01", { standard: 26.4 }],
      ["2026-01-01", { standard: 27.5 }, SOURCE.KR],
    ],
    "Top national rate (25 % from 2026, 24 % in 2023–2025) plus the local income tax of a tenth of it",
  ],
  [
    "LT",
    [
      [SINCE, { standard: 15 }],
      ["2025-01-01", { standard: 16 }],
      ["2026-01-01", { standard: 17 }, SOURCE.LT],
    ],
  ],
  [
    "LU",
    [
      [SINCE, { standard: 24.94 }],
      ["2025-01-01", { standard: 23.87 }],
    ],
    "Corporate income tax (16 % from 2025) with the 7 % employment fund surcharge, plus Luxembourg City's municipal business tax",
  ],
  ["LV", steady({ standard: 20 })],
  ["MX", steady({ standard: 30 })],
  [
    "NL",
    [
      [SINCE, { standard: 25 }],
      ["2022-01-01", { standard: 25.8 }],
    ],
  ],
  ["NO", steady({ standard: 22 })],
  ["NZ", steady({ standard: 28 })],
  ["PL", steady({ standard: 19 })],
  [
    "PT",
    [
      [SINCE, { standard: 31.5 }],
      ["2025-01-01", { standard: 30.5 }],
      ["2026-01-01", { standard: 29.5 }, SOURCE.PT],
    ],
    "Corporate income tax (19 % from 2026, 20 % in 2025, 21 % before) plus the municipal surcharge of up to 1.5 % and the top state surcharge of 9 %",
  ],
  [
    "SE",
    [
      [SINCE, { standard: 21.4 }],
      ["2021-01-01", { standard: 20.6 }],
    ],
  ],
  [
    "SI",
    [
      [SINCE, { standard: 19 }],
      ["2024-01-01", { standard: 22 }],
    ],
  ],
  [
    "SK",
    [
      [SINCE, { standard: 21 }],
      ["2025-01-01", { standard: 24 }, SOURCE.SK],
    ],
    "From 2025, 24 % on taxable income over EUR 5 million and 21 % below it (lower rates for the smallest companies)",
  ],
  [
    "TR",
    [
      [SINCE, { standard: 22 }],
      ["2021-01-01", { standard: 25 }],
      ["2022-01-01", { standard: 23 }],
      ["2023-01-01", { standard: 25 }],
    ],
  ],
  [
    "US",
    [
      [SINCE, { standard: 25.77 }],
      ["2021-01-01", { standard: 25.75 }],
      ["2022-01-01", { standard: 25.81 }],
      ["2023-01-01", { standard: 25.77 }],
      ["2024-01-01", { standard: 25.63 }],
      ["2025-01-01", { standard: 25.57 }],
    ],
    "Federal 21 % plus the average of the states' top rates, deductible federally, as the OECD computes it",
  ],
];

/** State-level sales tax rates; local rates come on top. */
const US_STATES: [string, string, Period[]][] = [
  ["AL", "Alabama", steady({ standard: 4 })],
  ["AK", "Alaska", steady({ zero: 0 })],
  ["AZ", "Arizona", steady({ standard: 5.6 })],
  ["AR", "Arkansas", steady({ standard: 6.5 })],
  ["CA", "California", steady({ standard: 7.25 })],
  ["CO", "Colorado", steady({ standard: 2.9 })],
  ["CT", "Connecticut", steady({ standard: 6.35 })],
  ["DE", "Delaware", steady({ zero: 0 })],
  [
    "DC",
    "District of Columbia",
    [
      [SINCE, { standard: 6 }],
      ["2025-10-01", { standard: 6.5 }, SOURCE.DC],
      ["2026-10-01", { standard: 7 }, SOURCE.DC],
    ],
  ],
  ["FL", "Florida", steady({ standard: 6 })],
  ["GA", "Georgia", steady({ standard: 4 })],
  ["HI", "Hawaii", steady({ standard: 4 })],
  ["ID", "Idaho", steady({ standard: 6 })],
  ["IL", "Illinois", steady({ standard: 6.25 })],
  ["IN", "Indiana", steady({ standard: 7 })],
  ["IA", "Iowa", steady({ standard: 6 })],
  ["KS", "Kansas", steady({ standard: 6.5 })],
  ["KY", "Kentucky", steady({ standard: 6 })],
  [
    "LA",
    "Louisiana",
    [
      [SINCE, { standard: 4.45 }],
      ["2025-01-01", { standard: 5 }],
    ],
  ],
  ["ME", "Maine", steady({ standard: 5.5 })],
  ["MD", "Maryland", steady({ standard: 6 })],
  ["MA", "Massachusetts", steady({ standard: 6.25 })],
  ["MI", "Michigan", steady({ standard: 6 })],
  ["MN", "Minnesota", steady({ standard: 6.875 })],
  ["MS", "Mississippi", steady({ standard: 7 })],
  ["MO", "Missouri", steady({ standard: 4.225 })],
  ["MT", "Montana", steady({ zero: 0 })],
  ["NE", "Nebraska", steady({ standard: 5.5 })],
  ["NV", "Nevada", steady({ standard: 6.85 })],
  ["NH", "New Hampshire", steady({ zero: 0 })],
  ["NJ", "New Jersey", steady({ standard: 6.625 })],
  [
    "NM",
    "New Mexico",
    [
      [SINCE, { standard: 5.125 }],
      ["2022-07-01", { standard: 5 }],
      ["2024-07-01", { standard: 4.875 }],
    ],
  ],
  ["NY", "New York", steady({ standard: 4 })],
  ["NC", "North Carolina", steady({ standard: 4.75 })],
  ["ND", "North Dakota", steady({ standard: 5 })],
  ["OH", "Ohio", steady({ standard: 5.75 })],
  ["OK", "Oklahoma", steady({ standard: 4.5 })],
  ["OR", "Oregon", steady({ zero: 0 })],
  ["PA", "Pennsylvania", steady({ standard: 6 })],
  ["RI", "Rhode Island", steady({ standard: 7 })],
  ["SC", "South Carolina", steady({ standard: 6 })],
  [
    "SD",
    "South Dakota",
    [
      [SINCE, { standard: 4.5 }],
      ["2023-07-01", { standard: 4.2 }],
    ],
  ],
  ["TN", "Tennessee", steady({ standard: 7 })],
  ["TX", "Texas", steady({ standard: 6.25 })],
  ["UT", "Utah", steady({ standard: 6.1 })],
  ["VT", "Vermont", steady({ standard: 6 })],
  ["VA", "Virginia", steady({ standard: 5.3 })],
  ["WA", "Washington", steady({ standard: 6.5 })],
  ["WV", "West Virginia", steady({ standard: 6 })],
  ["WI", "Wisconsin", steady({ standard: 5 })],
  ["WY", "Wyoming", steady({ standard: 4 })],
];

/** Provincial taxes: HST replaces GST where it applies; PST and QST come on top of GST. */
const CA_PROVINCES: [string, string, TaxType, string, string, Period[]][] = [
  ["ON", "Ontario", "GST", "HST", "Harmonized sales tax", steady({ standard: 13 })],
  ["NB", "New Brunswick", "GST", "HST", "Harmonized sales tax", steady({ standard: 15 })],
  ["NL", "Newfoundland and Labrador", "GST", "HST", "Harmonized sales tax", steady({ standard: 15 })],
  [
    "NS",
    "Nova Scotia",
    "GST",
    "HST",
    "Harmonized sales tax",
    [
      [SINCE, { standard: 15 }],
      ["2025-04-01", { standard: 14 }],
    ],
  ],
  ["PE", "Prince Edward Island", "GST", "HST", "Harmonized sales tax", steady({ standard: 15 })],
  ["QC", "Quebec", "SalesTax", "QST", "Quebec sales tax", steady({ standard: 9.975 })],
  ["BC", "British Columbia", "SalesTax", "PST", "Provincial sales tax", steady({ standard: 7 })],
  ["MB", "Manitoba", "SalesTax", "RST", "Retail sales tax", steady({ standard: 7 })],
  ["SK", "Saskatchewan", "SalesTax", "PST", "Provincial sales tax", steady({ standard: 6 })],
  ["AB", "Alberta", "SalesTax", "PST", "No provincial sales tax", steady({ zero: 0 })],
  ["NT", "Northwest Territories", "SalesTax", "PST", "No territorial sales tax", steady({ zero: 0 })],
  ["NU", "Nunavut", "SalesTax", "PST", "No territorial sales tax", steady({ zero: 0 })],
  ["YT", "Yukon", "SalesTax", "PST", "No territorial sales tax", steady({ zero: 0 })],
];

export const TAX_REGIMES: TaxRegime[] = [
  ...EU_VAT.map(([country, nameLocal, abbr, periods]) =>
    regime(country, "VAT", periods, {
      nameLocal,
      abbr,
      dataSource: "EU_VAT",
      sourceUrl: EU_SOURCE,
      filingFrequency: "monthly or quarterly",
    }),
  ),
  ...OECD_NON_EU_VAT,
  ...OTHER_VAT.map(([country, taxType, abbr, periods]) =>
    regime(country, taxType, periods, {
      abbr,
      nameEn: taxType === "GST" ? "Goods and services tax" : taxType === "SalesTax" ? "Sales tax" : "Value-added tax",
    }),
  ),
  CHINA_VAT,
  ...CORPORATE.map(([country, periods, scope]) =>
    regime(country, "CorporateTax", periods, {
      nameEn: "Corporate income tax",
      abbr: "CIT",
      dataSource: "OECD",
      sourceUrl: OECD_CIT_SOURCE,
      applicableScope: scope ? `${CIT_SCOPE}. ${scope}` : CIT_SCOPE,
      filingFrequency: "annual",
    }),
  ),
  ...US_STATES.map(([state, name, periods]) =>
    regime("US", "SalesTax", periods, {
      region: { code: `US-${state}`, name },
      nameEn: "State sales tax",
      abbr: "ST",
      taxId: undefined,
      dataSource: "CUSTOM",
      sourceUrl: US_SOURCE,
      applicableScope: "State-level rate; county and city rates are added locally",
    }),
  ),
  ...CA_PROVINCES.map(([province, name, taxType, abbr, nameEn, periods]) =>
    regime("CA", taxType, periods, {
      region: { code: `CA-${province}`, name },
      nameEn,
      abbr,
      dataSource: "CUSTOM",
      sourceUrl: CA_SOURCE,
    }),
  ),
];
