/** HTML as the DOM holds it, so equal DOMs compare equal whatever their source spelling. */
export function dom(html: string): string {
  const el = document.createElement('div');
  el.innerHTML = html;
  return el.innerHTML;
}

/** An element's inner markup with a streamed code block's segments unwrapped: what rendering it whole gives. */
export function withoutSegments(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const seg of copy.querySelectorAll('.code-seg')) seg.replaceWith(...seg.childNodes);
  return dom(copy.innerHTML);
}
