"""A generated brochure repository: N realistic Korean documents with front matter.

Deterministic (``random.Random(seed)``): the same N gives the same files, so blob shas and
request counts are comparable between runs. One big document (every block kind, ~150 KB) is
added for the preview/memory scenario.
"""

from __future__ import annotations

import random
from pathlib import Path

from modu_desktop.core.brochure.themes import LAYOUT_KEYS, THEME_KEYS

TOPICS = (
    "AI 융합교육",
    "SW 기초교육",
    "산학협력 프로젝트",
    "창업 지원",
    "글로벌 교류",
    "오픈소스 기여",
    "데이터 사이언스",
    "클라우드 실습",
    "정보보안 트랙",
    "메타버스 콘텐츠",
    "지역 상생",
    "교원 역량 강화",
    "학생 멘토링",
    "캡스톤 디자인",
    "해커톤",
)
NOUNS = ("학생", "교수진", "협력 기업", "지역 사회", "연구실", "동문", "멘토", "운영위원회")
VERBS = ("운영합니다", "지원합니다", "확대합니다", "개선합니다", "공유합니다", "추진합니다")
ADJ = ("체계적인", "실무 중심의", "지속 가능한", "개방형", "맞춤형", "현장 밀착형")
BIG_DOC_ID = "zz-big-handbook"


def _with(noun: str) -> str:
    """The particle 와/과 by the last syllable's final consonant (학생과, 멘토와)."""
    last = noun[-1]
    final = (ord(last) - 0xAC00) % 28 if "\uac00" <= last <= "\ud7a3" else 0
    return noun + ("과" if final else "와")


def sentence(rng: random.Random) -> str:
    return (
        f"{rng.choice(ADJ)} {rng.choice(TOPICS)} 과정으로 {_with(rng.choice(NOUNS))} 함께 "
        f"{rng.choice(NOUNS)}의 성장을 {rng.choice(VERBS)}"
    )


def paragraph(rng: random.Random, n: int = 4) -> str:
    return " ".join(sentence(rng) + "." for _ in range(n))


def _stats(rng: random.Random) -> str:
    items = "\n\n".join(
        f"- label: {rng.choice(NOUNS)} 참여\n  value: {rng.randint(10, 2000):,}명\n"
        f"  sub: 최근 {rng.randint(1, 5)}년 누적"
        for _ in range(rng.randint(3, 4))
    )
    return f":::stats\ntitle: 주요 성과\nsubtitle: KEY RESULTS\n\n{items}\n:::\n"


def _cards(rng: random.Random) -> str:
    items = "\n\n".join(
        f"- title: {rng.choice(TOPICS)}\n  description: {sentence(rng)}.\n  icon: 🎓"
        for _ in range(rng.randint(3, 6))
    )
    return f":::cards\ntitle: 핵심 과정\nsubtitle: PROGRAMS\ncolumns: 3\n\n{items}\n:::\n"


def _timeline(rng: random.Random) -> str:
    items = "\n\n".join(
        f"- phase: {q}분기\n  title: {rng.choice(TOPICS)}\n  description: {sentence(rng)}"
        for q in range(1, 5)
    )
    return f":::timeline\ntitle: 추진 일정\nsubtitle: ROADMAP\n\n{items}\n:::\n"


def _datatable(rng: random.Random) -> str:
    rows = "\n".join(
        f"- {rng.choice(TOPICS)} | {rng.randint(1, 40)}학점 | {rng.choice(NOUNS)}"
        for _ in range(rng.randint(4, 10))
    )
    return f":::datatable\ntitle: 교과목 현황\n\n- 과정 | 학점 | 대상\n{rows}\n:::\n"


def _hero(rng: random.Random, title: str) -> str:
    return (
        f":::hero\nbadge: CHAPTER · {rng.choice(TOPICS)}\ntitle: {title}\n"
        f"description: {paragraph(rng, 2)}\n:::\n"
    )


BLOCKS = (_stats, _cards, _timeline, _datatable)


def document(rng: random.Random, index: int, doc_id: str) -> str:
    topic = rng.choice(TOPICS)
    title = f"{topic} 안내 {index:04d}"
    fm = [
        "---",
        f"id: {doc_id}",
        f"title: {title}",
        f"sidebar_position: {index}",
        f"nav_label: {topic}",
        f"theme: {rng.choice(THEME_KEYS)}",
        f"layout: {rng.choice(LAYOUT_KEYS)}",
    ]
    if rng.random() < 0.3:
        fm.append("hide_title: true")
    fm.append(f"description: {sentence(rng)}")
    fm.append("---")
    parts = ["\n".join(fm), "", _hero(rng, title)]
    for _ in range(rng.randint(1, 4)):
        parts.append(f"## {rng.choice(TOPICS)}\n\n{paragraph(rng, rng.randint(3, 8))}\n")
        parts.append(rng.choice(BLOCKS)(rng))
    return "\n".join(parts)


def big_document(rng: random.Random, target_bytes: int = 150_000) -> str:
    head = (
        "---\nid: big-handbook\ntitle: 운영 핸드북 (대용량)\nsidebar_position: 9999\n"
        "nav_label: 핸드북\ntheme: royal-purple\nlayout: standard\n---\n\n"
    )
    parts = [head, _hero(rng, "운영 핸드북")]
    size = len(head.encode())
    i = 0
    while size < target_bytes:
        i += 1
        chunk = (
            f"## {i}. {rng.choice(TOPICS)}\n\n{paragraph(rng, 6)}\n\n"
            f"- **{rng.choice(NOUNS)}**: {sentence(rng)}\n- `코드 {i}` [링크](/docs/{i})\n\n"
            f"{BLOCKS[i % len(BLOCKS)](rng)}\n"
        )
        parts.append(chunk)
        size += len(chunk.encode())
    return "".join(parts)


def generate(root: Path, n_docs: int, *, seed: int = 7, big: bool = True) -> list[str]:
    """Write ``root/docs/NNNN-slug.md`` (N documents, + the big one) and a deploy workflow.
    Returns the doc ids in file order."""
    rng = random.Random(seed)
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    ids: list[str] = []
    for i in range(1, n_docs + 1):
        doc_id = f"{i:04d}-doc{i}"
        (docs / f"{doc_id}.md").write_text(document(rng, i, doc_id), encoding="utf-8")
        ids.append(doc_id)
    if big:
        (docs / f"{BIG_DOC_ID}.md").write_text(big_document(rng), encoding="utf-8")
        ids.append(BIG_DOC_ID)
    wf = root / ".github" / "workflows"
    wf.mkdir(parents=True, exist_ok=True)
    (wf / "deploy.yml").write_text(
        "name: deploy\non:\n  push:\n    branches: [main]\n    paths-ignore: ['.locks/**']\n"
        "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo build\n",
        encoding="utf-8",
    )
    (root / "docusaurus.config.js").write_text(
        "module.exports = {title: 'PNU-Modu'};\n", encoding="utf-8"
    )
    return ids
