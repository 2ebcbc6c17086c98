# ruff: noqa: E501
"""Filled-in examples of every block, inserted by “블록 넣기” (Qt-free).

Taken word for word from the site's own guide (``docs/99-template.md``, the live example under
each heading); ``chapter-header``, which the guide does not show, follows its component's props.
"""

EXAMPLES: dict[str, str] = {
    "hero": """\
:::hero
badge: CHAPTER 01 · 사업소개
title: 진정한 AI·SW 가치확산을 실현하는 부산대학교 SW중심대학
description: 대학교육을 SW중심으로 혁신함으로써 학생·기업·사회의 Software 경쟁력을 강화합니다.
:::""",
    "kpi": """\
:::kpi
subtitle: Key Figures
title: 핵심 현황

- label: SW학과 정원
  value: 192명
  sub: 2019년 대비 43% 순증

- label: 전공 특화 트랙
  value: 8개
  sub: 클라우드·보안·IoT 등

- label: 동남권 AI·SW
  value: 거점 1위
  sub: 국립대학 최초 SW중심대학 선정
:::""",
    "stats": """\
:::stats
title: 주요 성과 지표
subtitle: KEY PERFORMANCE INDICATORS

- label: 졸업생 취업률
  value: 89.3%
  sub: 전국 상위 5% 수준

- label: 산학협력 기업
  value: 247개사
  sub: 부울경 기반 주요 ICT 기업

- label: 교육 수혜 학생
  value: 12,400명
  sub: 누적 기준 2023년
:::""",
    "cards": """\
:::cards
title: 5대 핵심 교육 미션
subtitle: CORE EDUCATION MISSION
columns: 3
variant: elevated

- title: AI·SW 전문인력 양성
  description: 이론과 실무를 겸비한 AI·SW 전문 교육으로 실무형 인재 양성
  icon: 🎯

- title: 실효성 있는 산학협력
  description: 산학협력 프로젝트, 채용연계형 인턴십을 통한 실무 역량 교육
  icon: 🤝

- title: AI·SW 가치확산
  description: 공교육 내 AI·SW 교육 강화, 맞춤형 프로그램 운영
  icon: 🌏
:::""",
    "panel": """\
:::panel
header: AI융합교육원 사업추진체계
headersub: Organization
columns: 3

- icon: 📚
  title: 기초교육부
  items: AI기본교육 전략수립 | AI기초교육과정 운영 | 교육콘텐츠 공동개발

- icon: 🎓
  title: 전공교육부
  items: AI대학 연계 및 인프라 구축 | 전공특화트랙 운영

- icon: 🔗
  title: 융합교육부
  items: AI융합연계전공 운영 | 개방형 온라인과정 운영
:::""",
    "panel-desc": """\
:::panel
header: 8개 AI·SW 전공 특화 트랙
headersub: SPECIALIZED CURRICULUM TRACKS
columns: 4

- icon: ☁️
  title: 클라우드
  desc: 클라우드 시장 연 18% 성장. 2030년 약 80만 명 신규 일자리 창출 전망

- icon: 🔒
  title: 융합보안
  desc: 차세대 보안 세계시장 연평균 15.33% 성장

- icon: 🤖
  title: 생성AI
  desc: 글로벌 시장 연평균 20% 이상 성장

- icon: 🧠
  title: 인공지능응용
  desc: 글로벌 시장 2030년까지 연평균 30% 이상 성장 전망
:::""",
    "stepper": """\
:::stepper
header: 3단계 추진 로드맵 · 2023–2028
headersub: THREE-PHASE ROADMAP

- phase: 1단계
  period: 2023–2024
  title: AI·SW 교육체계 재정비
  items: 8개 전공트랙 신설 | 인공지능 공동학과 신설 | PNU DevCloud 구축

- phase: 2단계
  period: 2025–2026
  title: 맞춤형 교육 내실화
  items: SMART-PNU 교육혁신모델 내실화 | 산학협력 선순환 체계 구축

- phase: 3단계
  period: 2027–2028
  title: 성과 분석 및 공유확산
  items: PNU-ICEx 성과 관리 | 취업연계 인턴십 성과 확산
:::""",
    "timeline": """\
:::timeline
title: 추진 일정
subtitle: PROJECT TIMELINE

- phase: 2023년 1분기
  title: 사업 출범 및 기반 구축
  description: SW중심대학 사업 선정, 추진위원회 구성, 전담 조직 설치

- phase: 2024년
  title: 교육과정 전면 개편
  description: 8개 특화트랙 교육과정 신설, 산업체 자문위원회 운영
  accent: true

- phase: 2025–2028년
  title: 성과 창출 및 확산
  description: 취업률 90% 목표, 지역 SW 가치확산 거점 완성
:::""",
    "strategy": """\
:::strategy
title: 4C 추진전략
subtitle: STRATEGIC FRAMEWORK

- letter: C
  title: Customized Education
  desc: 신기술 반영 교육과정 기반 맞춤형 교육혁신

- letter: C
  title: Convergence Research
  desc: 미래지향적 융합 연구 및 성과 창출

- letter: C
  title: Cooperative Industry-Univ.
  desc: 소통·관계 중심 산학협력 네트워크 강화

- letter: C
  title: Connected Regional Community
  desc: SW가치확산 지역거점 AI·SW 허브 구축
:::""",
    "alphagrid": """\
:::alphagrid
title: SMARTPNU — 8가지 인재상
subtitle: TALENT MODEL
columns: 4

- letter: S
  label: 문제해결형 혁신인재
  sub: Software

- letter: M
  label: 미래지향적 혁신인재
  sub: Medoid

- letter: A
  label: 자기주도형 혁신인재
  sub: AIMCSD

- letter: R
  label: 지역 혁신인재
  sub: Region
:::""",
    "roadmap": """\
:::roadmap
title: 사업 추진 로드맵
subtitle: IMPLEMENTATION ROADMAP

- phase: 1단계
  title: 기반 구축
  bullets: SW중심대학 출범 | 전담조직 설치 | 기초 교과 개편

- phase: 2단계
  title: 교육 고도화
  bullets: 8개 특화트랙 운영 | 산학협력 확대 | PNU DevCloud 구축

- phase: 3단계
  title: 성과 확산
  bullets: 지역 SW 허브 완성 | 성과 공유 세미나 | 모델 이전
:::""",
    "badges": """\
:::badges
title: 핵심 역량 키워드
subtitle: CORE COMPETENCIES

- letter: A
  label: AI

- letter: D
  label: Data

- letter: S
  label: Security

- letter: C
  label: Cloud
:::""",
    "chapters": """\
:::chapters
title: 브로슈어 구성
subtitle: BROCHURE CONTENTS
columns: 3

- category: CHAPTER 01
  title: 대학 소개 및 운영 방향
  description: 부산대학교 AI·SW 교육의 비전과 목표, 중장기 추진 전략을 소개합니다.
  link: /docs/intro

- category: CHAPTER 02
  title: 핵심 성과 및 역량
  description: SW중심대학 선정 이후 달성한 정량·정성적 성과를 정리합니다.
  link: /docs/part-2

- category: CHAPTER 03
  title: 교육혁신 체계
  description: 학사 조직 개편과 글로벌 표준 교육모델 SMART-PNU를 소개합니다.
  link: /docs/part-3
:::""",
    "quote": """\
:::quote
text: AI·SW 교육은 더 이상 선택이 아닌 필수입니다. 부산대학교는 동남권 AI 교육의 거점으로서 대한민국 디지털 미래를 이끌어 나가겠습니다.
author: 차정인
role: 부산대학교 총장
accent: true
:::""",
    "cta": """\
:::cta
title: AI·SW 교육, 지금 시작하세요
description: 부산대학교 AI융합교육원의 다양한 교육 프로그램을 만나보세요.
buttonText: 교육과정 바로가기
buttonLink: /docs/intro
:::""",
    "split": """\
:::split
left-header: 부산대–경북대 인공지능 공동학과
left-sub: Joint AI Department · 전국 최초
left-dark: true
right-header: 융합교육 혁신 4방향
right-sub: Convergence Strategy

left:
- label: 부산대학교
  value: 68명
  desc: AI Software 특화 교과목 주관

- label: 경북대학교
  value: 60명
  desc: AI Hardware 특화 교과목 주관

- label: 총 정원
  value: 128명
  desc: 전국 최초 인공지능 공동학과

right:
- num: "①"
  title: 융합교육체계 다변화
  desc: AI·SW융합트랙(14개) 추가. 수요별 다양한 융합 교육 과정

- num: "②"
  title: 융합 범위 확장
  desc: 이공계 중심에서 인문·사회 포함 전 분야로 확장
:::""",
    "datatable": """\
:::datatable
header: 2026학년도 모집 인원
headersub: ENROLLMENT QUOTAS
columns: 모집단위 | 정원 | 비고
align: left | center | left
note: ※ 인공지능전공은 부산대-경북대 공동학과

- **컴퓨터공학전공** | [!84명] | SW 전공 핵심 학과
- **인공지능전공** | [!60명] | 전국 최초 공동학과
- **데이터사이언스전공** | 44명 | [~의생명융합공학부 내 전공]
:::""",
    "chapter-header": """\
:::chapter-header
chapter: 1
label: 사업소개
title: 부산대학교 SW중심대학 사업 개요
subtitle: 대학교육을 SW중심으로 혁신합니다
:::""",
}
