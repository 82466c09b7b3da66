import Foundation
import Testing

/// One broken layout rule on a page: which rule, where (a selector-like path)
/// and the sizes that break it.
public struct LayoutViolation: Equatable, Sendable, CustomStringConvertible {
    /// `horizontal-scroll`, `outside-viewport`, `text-outside-viewport`, `cut-off` or `ellipsis`.
    public let rule: String
    /// e.g. `body > main#game > div.board:nth-of-type(2) > span.letter`.
    public let path: String
    public let detail: String
    public var description: String { "\(rule) \(path): \(detail)" }
}

/// The web client's layout rules (issue #46: "nothing cut off, no horizontal
/// scroll" at 360×640 and 1280×800), checked in the page itself.
///
/// The rules:
/// - `horizontal-scroll`: the document is wider than the viewport
///   (documentElement.scrollWidth > clientWidth).
/// - `outside-viewport`: a visible element's box (as far as its clipping
///   ancestors let it show) ends past the viewport's right edge or starts
///   left of 0. Only the outermost such element is reported.
/// - `text-outside-viewport`: a run of text is drawn past either edge (also
///   when `overflow-x: hidden` on the page hides the scroll bar).
/// - `cut-off`: a visible element with text whose content is larger than its
///   box while its overflow is `hidden` or `clip` (scrollWidth > clientWidth + 1
///   or scrollHeight > clientHeight + 1). Form fields, which scroll their
///   text by design, are left out.
/// - `ellipsis`: `text-overflow: ellipsis` is shortening a text.
///
/// Not checked: elements hidden from sight (display none, visibility hidden,
/// opacity 0, no box) and the usual visually-hidden pattern for screen
/// readers (a box of at most 1×1 px, or `clip`/`clip-path` set), which an
/// ARIA live region uses, with everything inside them; and any element marked
/// `data-layout-ignore`, with its descendants (a carousel meant to scroll
/// sideways, say: say why where you use it).
public enum LayoutRules {
    /// The function body run in the page; returns `[{rule, path, detail}]`.
    public static let script = #"""
    const limit = arguments[0];
    const out = [];
    const doc = document.documentElement;
    const vw = doc.clientWidth;
    const slack = 0.5;   // sub-pixel rounding
    const r = (n) => Math.round(n * 10) / 10;
    const add = (rule, el, detail) => { out.push({rule, path: pathOf(el), detail}); };

    function pathOf(el) {
      if (!el || el.nodeType !== 1) return '(text)';
      const parts = [];
      for (let e = el; e && e.nodeType === 1 && parts.length < 6; e = e.parentElement) {
        let part = e.tagName.toLowerCase();
        if (e.id) { parts.unshift(part + '#' + e.id); break; }
        const classes = Array.from(e.classList).slice(0, 2);
        if (classes.length) part += '.' + classes.join('.');
        const parent = e.parentElement;
        if (parent) {
          const same = Array.from(parent.children).filter(c => c.tagName === e.tagName);
          if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(e) + 1) + ')';
        }
        parts.unshift(part);
        if (e === document.body || e === doc) break;
      }
      return parts.join(' > ');
    }

    // Hidden from sight, or meant for screen readers only, or opted out: skip it and what it holds.
    function skipped(el) {
      for (let e = el; e && e !== doc; e = e.parentElement) {
        if (e.hasAttribute('data-layout-ignore')) return true;
        const s = getComputedStyle(e);
        if (s.display === 'none') return true;
        const box = e.getBoundingClientRect();
        const clipped = (s.clip && s.clip !== 'auto') || (s.clipPath && s.clipPath !== 'none');
        if (clipped && (s.position === 'absolute' || s.position === 'fixed')) return true;
        if (box.width <= 1 && box.height <= 1 && s.overflow !== 'visible' && s.display !== 'contents') return true;
      }
      return false;
    }
    function visible(el) {
      if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    }
    // The part of a rectangle its clipping ancestors (overflow other than visible) let show.
    function shown(el, rect) {
      let left = rect.left, right = rect.right;
      for (let e = el.parentElement; e && e !== doc && e !== document.body; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.overflowX !== 'visible') {
          const b = e.getBoundingClientRect();
          left = Math.max(left, b.left); right = Math.min(right, b.right);
        }
      }
      return {left, right};
    }
    const hasText = (el) => (el.textContent || '').trim().length > 0;

    if (doc.scrollWidth > doc.clientWidth) {
      add('horizontal-scroll', doc, 'document scrollWidth ' + doc.scrollWidth + ' > clientWidth ' + doc.clientWidth);
    }

    const outside = [];
    for (const el of document.body ? document.body.querySelectorAll('*') : []) {
      if (out.length >= limit) break;
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BR', 'WBR'].includes(el.tagName)) continue;
      if (!visible(el) || skipped(el)) continue;
      const box = el.getBoundingClientRect();
      const s = getComputedStyle(el);

      const {left, right} = shown(el, box);
      if (right > left && (right > vw + slack || left < -slack) && !outside.some(o => o.contains(el))) {
        outside.push(el);
        add('outside-viewport', el, 'box x ' + r(left) + '…' + r(right) + ' (width ' + r(box.width) + '), viewport width ' + vw);
      }

      if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !hasText(el)) continue;
      const hidesX = s.overflowX === 'hidden' || s.overflowX === 'clip';
      const hidesY = s.overflowY === 'hidden' || s.overflowY === 'clip';
      const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
      if (s.textOverflow === 'ellipsis' && wide) {
        add('ellipsis', el, 'text shortened with an ellipsis: scrollWidth ' + el.scrollWidth + ' > clientWidth ' + el.clientWidth
            + ' (' + JSON.stringify(el.textContent.trim().slice(0, 40)) + ')');
      } else if ((hidesX && wide) || (hidesY && tall)) {
        add('cut-off', el, 'content ' + el.scrollWidth + '×' + el.scrollHeight + ' in a box of ' + el.clientWidth + '×' + el.clientHeight
            + ' with overflow ' + s.overflowX + '/' + s.overflowY + ' (' + JSON.stringify(el.textContent.trim().slice(0, 40)) + ')');
      }
    }

    // Runs of text drawn past an edge (their element may fit while the text spills).
    if (document.body) {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let t = walker.nextNode(); t && out.length < limit; t = walker.nextNode()) {
        const el = t.parentElement;
        if (!el || !t.textContent.trim() || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)) continue;
        if (!visible(el) || skipped(el) || outside.some(o => o.contains(el))) continue;
        range.selectNodeContents(t);
        const box = range.getBoundingClientRect();
        if (box.width === 0) continue;
        const {left, right} = shown(el, box);
        if (right > left && (right > vw + slack || left < -slack)) {
          outside.push(el);
          add('text-outside-viewport', el, 'text x ' + r(left) + '…' + r(right) + ', viewport width ' + vw
              + ' (' + JSON.stringify(t.textContent.trim().slice(0, 40)) + ')');
        }
      }
    }
    return out;
    """#

    /// The rules broken by the page now (at most `limit`).
    public static func violations(in browser: Browser, limit: Int = 50) throws -> [LayoutViolation] {
        let found = try browser.run(script, [.number(Double(limit))])
        guard let list = found.array else {
            throw WebDriverError("\(browser.label): the layout rules returned \(found.description.prefix(200))")
        }
        return list.map {
            LayoutViolation(rule: $0["rule"]?.string ?? "?", path: $0["path"]?.string ?? "?", detail: $0["detail"]?.string ?? "")
        }
    }
}

/// Fails the test with every layout rule the page breaks now; `label` names
/// the screen and viewport in the message ("lobby, phone, Dutch"). Returns the
/// violations (empty when the page passes).
@discardableResult
public func assertLayout(_ browser: Browser, _ label: String,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> [LayoutViolation] {
    let found = try LayoutRules.violations(in: browser)
    if !found.isEmpty {
        let list = found.map { "  - \($0)" }.joined(separator: "\n")
        Issue.record("\(label) at \(browser.viewport) breaks \(found.count) layout rule(s):\n\(list)",
                     sourceLocation: sourceLocation)
    }
    return found
}
