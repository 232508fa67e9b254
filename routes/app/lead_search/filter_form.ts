/**
 * The filter form's fields and how a submitted form becomes the `filters` object the start verb
 * takes. Only the splitting of typed text into lists happens here; what a value may be (lengths,
 * counts, headcount ranges) is the verb's rule, and its refusals are shown as they are.
 */
import { HEADCOUNT_RANGES } from "../../../domain/directory/directory_person.ts";
import {
  type FilterName,
  MAX_FILTER_MEMBER_LENGTH,
  MAX_FILTER_MEMBERS,
} from "../../../domain/lead_search/lead_search_run.ts";
import { FILTER_LABELS } from "./parts.tsx";

export type TextFilter = Exclude<FilterName, "headcount">;

export interface TextFilterField {
  name: TextFilter;
  label: string;
  /** How the filter matches, as docs/api.md says it. */
  hint: string;
  placeholder: string;
  /**
   * Whether a comma separates values. Not in locations and company names, where a comma is part
   * of the value ("Paris, France", "Acme, Inc."): there a new line or a semicolon separates.
   */
  commaSeparates: boolean;
}

export const TEXT_FILTER_FIELDS: TextFilterField[] = [
  {
    name: "jobTitle",
    label: FILTER_LABELS.jobTitle,
    hint:
      "Every word of a value appears in the title, case ignored: “sales manager” matches “Senior Sales Manager”.",
    placeholder: "engineer, sales manager",
    commaSeparates: true,
  },
  {
    name: "location",
    label: FILTER_LABELS.location,
    hint:
      "The whole location or its part before the first comma, case ignored: “Berlin” matches “Berlin, Germany”. One per line or separated by semicolons.",
    placeholder: "Berlin\nParis, France",
    commaSeparates: false,
  },
  {
    name: "company",
    label: FILTER_LABELS.company,
    hint:
      "The company’s name or an alias; case, punctuation and legal forms (Inc., GmbH) ignored. One per line or separated by semicolons.",
    placeholder: "Acme",
    commaSeparates: false,
  },
  {
    name: "industry",
    label: FILTER_LABELS.industry,
    hint: "The company’s industry, the whole of it, case ignored.",
    placeholder: "Software, Healthcare",
    commaSeparates: true,
  },
  {
    name: "seniority",
    label: FILTER_LABELS.seniority,
    hint: "Equal, case ignored; the usual levels are entry, senior, manager, director, vp, cxo.",
    placeholder: "director, vp",
    commaSeparates: true,
  },
  {
    name: "keywords",
    label: FILTER_LABELS.keywords,
    hint: "At least one in common with the person’s keywords, case ignored.",
    placeholder: "saas, kubernetes",
    commaSeparates: true,
  },
];

export const FILTER_RULES =
  `Each filter is a list of alternatives: any of its values may match. Every filter you fill in must match; leave them all empty to take anyone. At most ${MAX_FILTER_MEMBERS} values of ${MAX_FILTER_MEMBER_LENGTH} characters per filter.`;

export { HEADCOUNT_RANGES };

/** What the member typed, to put back into the form after a refusal. */
export interface FilterFormValues {
  text: Record<TextFilter, string>;
  headcount: string[];
  count: string;
}

export const EMPTY_FILTER_FORM: FilterFormValues = {
  text: { jobTitle: "", location: "", company: "", industry: "", seniority: "", keywords: "" },
  headcount: [],
  count: "100",
};

type FormBody = Record<string, string | File | (string | File)[]>;

/** The form's values as typed, from `parseBody({ all: true })`. */
export function readFilterForm(body: FormBody): FilterFormValues {
  const one = (name: string): string => {
    const value = body[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === "string" ? first : "";
  };
  const raw = body.headcount;
  const headcount = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .filter((v): v is string => typeof v === "string");
  const text = { ...EMPTY_FILTER_FORM.text };
  for (const field of TEXT_FILTER_FIELDS) text[field.name] = one(field.name);
  return { text, headcount, count: one("count").trim() };
}

/** The filters object the start verb takes: each typed field split into its values. */
export function filtersOf(values: FilterFormValues): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const field of TEXT_FILTER_FIELDS) {
    const separator = field.commaSeparates ? /[\n\r,;]+/ : /[\n\r;]+/;
    const members = values.text[field.name].split(separator).map((v) => v.trim()).filter(Boolean);
    if (members.length > 0) filters[field.name] = members;
  }
  if (values.headcount.length > 0) filters.headcount = values.headcount;
  return filters;
}

/** The count field as the verb takes it: a number when it is one, else as typed (refused there). */
export function countOf(text: string): unknown {
  return /^\d{1,7}$/.test(text) ? Number(text) : text === "" ? undefined : text;
}
