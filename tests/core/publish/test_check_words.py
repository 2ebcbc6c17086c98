"""The publish check speaks everyday Korean: no message, button or explanation names the
site's technical machinery (MDX, JSX, HTML, tags, comment syntax) — only the person's own text
is quoted."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from modu_desktop import i18n
from modu_desktop.core.publish.check import check_text
from modu_desktop.core.publish.check.messages import fix_explanation
from tests.helpers import publish_corpus

MESSAGES = Path(__file__).resolve().parents[3] / "modu_desktop" / "core" / "publish" / "check"
TECHNICAL = re.compile(
    r"MDX|JSX|HTML|마크다운|태그|주석|코드|컴포넌트|구성 ?요소|\{/\*|\*/\}|<!--|‹!--|-->|→",
    re.IGNORECASE,
)
FM = "---\nid: sample\ntitle: 예시\n---\n\n"
# Every kind of finding with a fix, as a person types them.
BODIES = [
    "본문 <br> 입니다.\n",
    "<br>텍스트</br>\n",
    "안녕하세요, {이름} 님.\n",
    "설정 {a: 1} 입니다.\n",
    "## 제목 {#custom}\n",
    "<!-- 메모 -->\n\n본문\n",
    "<!---->\n\n본문\n",
    "<div>\n\n내용\n",
    "내용 </div>\n",
    "<b><i>글</b></i>\n",
    "<Foo>안내</Foo> 문구\n",
    '<span style="color: red">빨강</span>\n',
    "점수 <90 입니다\n",
    "<참고> 자료를 보세요\n",
    "<https://pnu.ac.kr>\n",
    "export 기능입니다.\n",
    "중괄호 { 하나만\n",
    ":::hero\ntitle: {이름}\n:::\n",
    ":::hero\ntitle: 제목\n\n본문\n",
    ":::tip 알아두세요\n내용\n:::\n",
    "**마크다운(Markdown)**을 씁니다.\n",
    "10~20명\n\n1. 항목이 아닌 줄\n",
]


def _tr_sources() -> list[str]:
    out = []
    for path in sorted(MESSAGES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                out.append(node.args[0].value)
    return out


def test_no_korean_text_of_the_check_names_the_machinery() -> None:
    korean = i18n.catalogue()
    sources = _tr_sources()
    assert len(sources) >= 60
    bad = [(s, korean.get(s, "")) for s in sources if TECHNICAL.search(korean.get(s, ""))]
    assert not bad, bad


def _without_quoted(text: str, *values: str) -> str:
    for value in sorted(values, key=len, reverse=True):
        if value:
            text = text.replace(value, "")
    return text


def test_what_a_person_reads_in_the_check_names_no_machinery() -> None:
    i18n.set_language("ko")
    paths = publish_corpus.site_paths()
    texts = [(d.text, "docs/" + d.name) for d in publish_corpus.corpus()]
    texts += [(FM + body, "docs/sample.md") for body in BODIES]
    seen: set[str] = set()
    for text, path in texts:
        for f in check_text(text, path=path, repo_paths=paths).findings:
            quoted = [*f.fields.values()]
            if f.fix is not None:
                quoted += [f.fix.original.strip(), f.fix.replacement.strip()]
                quoted += [q[:27] for q in quoted]
            for said in (f.message, f.fix_label, fix_explanation(f)):
                plain = _without_quoted(said, *quoted)
                # "<br />" is the person's own line break; a mark they typed is quoted as typed
                plain = re.sub(r"“[^”]*”", "", plain)
                assert not TECHNICAL.search(plain), (f.code, said)
            seen.add(f.code)
    assert {"mdx-html-comment", "mdx-unclosed-tag", "mdx-undefined-name", "mdx-esm"} <= seen
