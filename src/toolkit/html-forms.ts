/**
 * Reads what a script needs from the bank's SCA pages: their forms (action, hidden fields, buttons,
 * check boxes and the text of the label around each box), the outcome a message page names, and
 * alerts. Keyed on names, ids and data attributes, never on layout, so a restyled page still reads.
 *
 * No HTML library is in the toolkit's dependencies and the pages are the bank's own plain markup
 * (docs/decisions/0252): a tag scanner that
 * honours quoted attribute values and decodes character references is enough, and a page it cannot
 * read is reported, not guessed at.
 */
export interface HtmlForm {
  action: string;
  method: string;
  /** Fields a browser sends unchanged: hidden inputs, in page order. */
  hidden: [string, string][];
  /** Submit buttons with a name, as `name=value`; `id` lets a caller find one by its role. */
  buttons: { name: string; value: string; id: string | undefined }[];
  /** Check boxes, with whether they were ticked and the text of the label that holds them. */
  checkboxes: { name: string; value: string; checked: boolean; label: string }[];
  /** Names of the inputs a person types into (text, password). */
  textInputs: string[];
}

export interface HtmlPage {
  forms: HtmlForm[];
  /** `data-outcome` of the element with id "outcome" (a message page), if any. */
  outcome: string | undefined;
  /** The text of every element with role="alert", and of the outcome element. */
  alerts: string[];
  outcomeText: string | undefined;
}

interface Tag {
  name: string;
  closing: boolean;
  attributes: Map<string, string>;
  start: number;
  end: number;
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function readHtmlPage(html: string): HtmlPage {
  const tags = scanTags(html);
  const forms: HtmlForm[] = [];
  let form: HtmlForm | undefined;
  let label: { start: number; box: HtmlForm['checkboxes'][number] | undefined } | undefined;
  for (const tag of tags) {
    if (tag.name === 'form') {
      form = tag.closing ? undefined : newForm(tag);
      if (form !== undefined) forms.push(form);
    } else if (tag.name === 'label') {
      if (!tag.closing) label = { start: tag.end, box: undefined };
      else if (label !== undefined) {
        if (label.box !== undefined) label.box.label = textOf(html.slice(label.start, tag.start));
        label = undefined;
      }
    } else if (!tag.closing && form !== undefined && (tag.name === 'input' || tag.name === 'button')) {
      const box = addControl(form, tag);
      if (box !== undefined && label !== undefined) label.box = box;
    }
  }
  const outcomeTag = tags.find((t) => !t.closing && t.attributes.get('id') === 'outcome');
  return {
    forms,
    outcome: outcomeTag?.attributes.get('data-outcome'),
    outcomeText: outcomeTag === undefined ? undefined : textOf(elementText(html, tags, outcomeTag)),
    alerts: tags
      .filter((t) => !t.closing && t.attributes.get('role') === 'alert')
      .map((t) => textOf(elementText(html, tags, t))),
  };
}

function newForm(tag: Tag): HtmlForm {
  return {
    action: tag.attributes.get('action') ?? '',
    method: (tag.attributes.get('method') ?? 'get').toLowerCase(),
    hidden: [],
    buttons: [],
    checkboxes: [],
    textInputs: [],
  };
}

/** Adds an input or button to the form; gives back a check box, for the label it sits in. */
function addControl(form: HtmlForm, tag: Tag): HtmlForm['checkboxes'][number] | undefined {
  const name = tag.attributes.get('name');
  if (name === undefined || tag.attributes.has('disabled')) return undefined;
  const type = (tag.attributes.get('type') ?? (tag.name === 'button' ? 'submit' : 'text')).toLowerCase();
  const value = tag.attributes.get('value') ?? '';
  if (type === 'hidden') form.hidden.push([name, value]);
  else if (type === 'submit') form.buttons.push({ name, value, id: tag.attributes.get('id') });
  else if (type === 'checkbox') {
    const box = { name, value: tag.attributes.get('value') ?? 'on', checked: tag.attributes.has('checked'), label: '' };
    form.checkboxes.push(box);
    return box;
  } else if (type === 'text' || type === 'password') form.textInputs.push(name);
  return undefined;
}

function scanTags(html: string): Tag[] {
  // Comments and scripts hold text that only looks like tags.
  const visible = html.replace(/<!--[\s\S]*?-->|<(script|style)\b[\s\S]*?<\/\1\s*>/gi, (m) => ' '.repeat(m.length));
  return [...visible.matchAll(TAG)].map((m) => ({
    name: m[2]!.toLowerCase(),
    closing: m[1] === '/',
    attributes: attributesOf(m[3] ?? ''),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) {
    const name = m[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attributes;
}

/** The markup between a start tag and the end tag that closes it (same name, nesting counted). */
function elementText(html: string, tags: Tag[], open: Tag): string {
  let depth = 0;
  for (const tag of tags) {
    if (tag.start < open.end || tag.name !== open.name) continue;
    if (!tag.closing) depth++;
    else if (depth-- === 0) return html.slice(open.end, tag.start);
  }
  return html.slice(open.end);
}

function textOf(markup: string): string {
  return decodeEntities(markup.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X')) return safeCodePoint(parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10), whole);
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(codePoint: number, fallback: string): string {
  return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : fallback;
}
