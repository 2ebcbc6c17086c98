"""Brochure pages for the search tests: every kind of card, marks, escapes and entities."""

from __future__ import annotations

ADMISSION = """---
id: admission-2025
title: "2025학년도 입학 안내"
nav_label: 입학
description: '부산대 ''모두'' 안내'
theme: ocean-cyan
---

:::hero
badge: 2025 ADMISSION
title: 신입생 모집
description: 지금 지원하세요
:::

## 2025학년도 일정

**2025**학년도 모집은 [홈페이지](/apply)에서 확인 &amp; 신청.
두 번째 줄\\
세 번째 줄 `코드 2025` :tada:

- 첫째 항목 2025
  - 안쪽 항목
- 둘째 *항목*

> 인용 2025
> 둘째 줄

| 구분 | 인원 \\| 비고 |
|---|---|
| 2025학년도 | 30명 |

:::stats
title: 주요 성과

- label: 졸업생
  value: 1,200명
  sub: 2025년 기준
  icon: 🎓
:::

:::datatable
columns: 과정 | 학점
- AI 기초 | 3학점
- 2025 특강 | 1학점
:::

:::split
left-header: 올해 모집 규모

left:
- label: 기초 과정
  value: 80명

right:
- num: "①"
  title: 2025학년도 원칙
:::

:::cta
title: 더 알아보기
buttonText: 2025 안내
buttonLink: /docs/2025
:::

:::note
2025학년도 주의
:::
"""
"""A page with every kind of card. "2025학년도" is in the settings, a heading, a bold mark
(``**2025**학년도``), a table cell, a split's right side and an admonition (a 원문 card)."""

PLAIN = """---
title: 학생 안내
---

Student First 과정은 STUDENT를 위한 과정입니다.

2025학년도 모집 일정은 2025학년도의 공지를 따릅니다.
"""
