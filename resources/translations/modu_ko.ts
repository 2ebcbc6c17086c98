<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name />
    <message>
        <source>Your token cannot save yet: the organization {owner} has to approve “{token}” first. Until then documents open read-only; after the approval, sign out and in again.</source>
        <translation>토큰으로 아직 저장할 수 없습니다. {owner} 기관의 관리자가 “{token}” 토큰을 먼저 승인해야 합니다. 승인 전까지 문서는 읽기 전용으로 열립니다. 승인되면 로그아웃한 뒤 다시 로그인하세요.</translation>
    </message>
    <message>
        <source>Block form</source>
        <translation>블록 양식</translation>
    </message>
    <message>
        <source>Block: {name}</source>
        <translation>블록: {name}</translation>
    </message>
    <message>
        <source>line {n}: {why} — “{text}”</source>
        <translation>{n}번째 줄: {why} — “{text}”</translation>
    </message>
    <message>
        <source>The form cannot read some lines; they stay in the text unchanged:</source>
        <translation>양식으로 읽을 수 없는 줄이 있습니다. 이 줄은 글에 그대로 둡니다:</translation>
    </message>
    <message>
        <source>Left items</source>
        <translation>왼쪽 항목</translation>
    </message>
    <message>
        <source>Right items</source>
        <translation>오른쪽 항목</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>행</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>항목</translation>
    </message>
    <message>
        <source>Add item</source>
        <translation>항목 추가</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>위로</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>아래로</translation>
    </message>
    <message>
        <source>New item</source>
        <translation>새 항목</translation>
    </message>
    <message>
        <source>Add row</source>
        <translation>행 추가</translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation>행 삭제</translation>
    </message>
    <message>
        <source>Add column</source>
        <translation>열 추가</translation>
    </message>
    <message>
        <source>Remove column</source>
        <translation>열 삭제</translation>
    </message>
    <message>
        <source>New column</source>
        <translation>새 열</translation>
    </message>
    <message>
        <source>Insert a block</source>
        <translation>블록 넣기</translation>
    </message>
    <message>
        <source>Choose a block. A filled-in example goes in at the cursor; change it in the form.</source>
        <translation>블록을 고르세요. 커서 위치에 예시가 채워진 블록이 들어갑니다. 내용은 양식에서 바꾸면 됩니다.</translation>
    </message>
    <message>
        <source>Search blocks</source>
        <translation>블록 찾기</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>블록</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>넣기</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>☰ List</source>
        <translation>☰ 목록</translation>
    </message>
    <message>
        <source>Show or hide the document list</source>
        <translation>문서 목록 숨기기/보이기</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>저장</translation>
    </message>
    <message>
        <source>Save the document</source>
        <translation>문서 저장</translation>
    </message>
    <message>
        <source>Save (Ctrl+S)</source>
        <translation>저장 (Ctrl+S)</translation>
    </message>
    <message>
        <source>Saved or not</source>
        <translation>저장 상태</translation>
    </message>
    <message>
        <source>Insert block</source>
        <translation>블록 넣기</translation>
    </message>
    <message>
        <source>Insert a brochure block</source>
        <translation>브로슈어 블록 넣기</translation>
    </message>
    <message>
        <source>Insert a brochure block ({keys})</source>
        <translation>브로슈어 블록 넣기 ({keys})</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>편집</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>미리 보기</translation>
    </message>
    <message>
        <source>Both</source>
        <translation>함께 보기</translation>
    </message>
    <message>
        <source>View: {name}</source>
        <translation>보기: {name}</translation>
    </message>
    <message>
        <source>Header lines</source>
        <translation>머리말 보기</translation>
    </message>
    <message>
        <source>Show the page settings as text (the --- lines at the top)</source>
        <translation>페이지 설정을 글자 그대로 봅니다 (맨 위의 --- 줄)</translation>
    </message>
    <message>
        <source>Show the raw page settings</source>
        <translation>페이지 설정 원문 보기</translation>
    </message>
    <message>
        <source>Insert &amp;block…</source>
        <translation>블록 넣기(&amp;B)…</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>읽기 전용</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>저장하는 중…</translation>
    </message>
    <message>
        <source>● Not saved yet</source>
        <translation>● 저장하지 않은 변경 있음</translation>
    </message>
    <message>
        <source>✔ Saved</source>
        <translation>✔ 저장됨</translation>
    </message>
    <message>
        <source>☰ Show list</source>
        <translation>☰ 목록 보기</translation>
    </message>
    <message>
        <source>Loading the document list…</source>
        <translation>문서 목록을 불러오는 중…</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>문서를 여는 중…</translation>
    </message>
    <message>
        <source>Picture too large</source>
        <translation>그림이 너무 큽니다</translation>
    </message>
    <message>
        <source>{name} is larger than {mb} MB. Make it smaller (longest side 2000 px, JPEG) and upload that?</source>
        <translation>{name} 파일은 {mb} MB보다 큽니다. 긴 쪽을 2000px로 줄인 JPEG로 바꿔서 올릴까요?</translation>
    </message>
    <message>
        <source>Make it smaller and upload</source>
        <translation>자동으로 줄여서 올리기</translation>
    </message>
    <message>
        <source>Make the photo smaller (2000 px, JPEG) and upload it</source>
        <translation>사진을 줄여서(2000px, JPEG) 올리기</translation>
    </message>
    <message>
        <source>Making {name} smaller and uploading it…</source>
        <translation>{name}{name:을} 줄여서 올리는 중…</translation>
    </message>
    <message>
        <source>{name} is {size}; pictures can be at most {mb} MB. The app can make it smaller for you (longest side 2000 px, JPEG) and upload that.</source>
        <translation>{name} 파일은 {size}입니다. 그림은 {mb} MB까지만 올릴 수 있습니다. 긴 쪽을 2000px로 줄인 JPEG로 바꿔서 대신 올릴 수 있습니다.</translation>
    </message>
    <message>
        <source>e.g. 2026 AI bootcamp</source>
        <translation>예: 2026 AI 부트캠프</translation>
    </message>
    <message>
        <source>Set the order in the menu</source>
        <translation>메뉴 순서 정하기</translation>
    </message>
    <message>
        <source>Order in the menu</source>
        <translation>메뉴 순서</translation>
    </message>
    <message>
        <source>Advanced ▸</source>
        <translation>고급 ▸</translation>
    </message>
    <message>
        <source>The page address and file name come from the id. It follows the title until you change it here.</source>
        <translation>페이지 주소와 파일 이름은 id로 정해집니다. 여기서 바꾸기 전까지는 제목을 따라 자동으로 정해집니다.</translation>
    </message>
    <message>
        <source>Advanced ▾</source>
        <translation>고급 ▾</translation>
    </message>
    <message>
        <source>Publishing state</source>
        <translation>게시 상태</translation>
    </message>
    <message>
        <source>View on site</source>
        <translation>사이트에서 보기</translation>
    </message>
    <message>
        <source>Open the published page in the browser</source>
        <translation>게시된 페이지를 브라우저로 열기</translation>
    </message>
    <message>
        <source>(no publishing run was started for this save)</source>
        <translation>(이번 저장으로는 게시 작업이 시작되지 않았습니다)</translation>
    </message>
    <message>
        <source>(this sign-in cannot see the publishing state)</source>
        <translation>(이 로그인으로는 게시 상태를 볼 수 없습니다)</translation>
    </message>
    <message>
        <source>(still not finished; look again later)</source>
        <translation>(아직 끝나지 않았습니다. 나중에 다시 확인하세요)</translation>
    </message>
    <message>
        <source>(publishing was skipped for this save)</source>
        <translation>(이번 저장은 게시를 건너뛰었습니다)</translation>
    </message>
    <message>
        <source>(publishing was cancelled)</source>
        <translation>(게시가 취소되었습니다)</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>저장됨</translation>
    </message>
    <message>
        <source>Getting ready to publish</source>
        <translation>게시 준비 중</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>게시됨</translation>
    </message>
    <message>
        <source>Publishing failed</source>
        <translation>게시 실패</translation>
    </message>
    <message>
        <source>Sign in with the browser (recommended)</source>
        <translation>브라우저로 로그인 (추천)</translation>
    </message>
    <message>
        <source>Sign in with the browser</source>
        <translation>브라우저로 로그인</translation>
    </message>
    <message>
        <source>Sign in with a token instead ▸</source>
        <translation>토큰으로 로그인하기 ▸</translation>
    </message>
    <message>
        <source>Sign in with a token</source>
        <translation>토큰으로 로그인</translation>
    </message>
    <message>
        <source>Create a token</source>
        <translation>토큰 만들기</translation>
    </message>
    <message>
        <source>Open GitHub's page to create a token, filled in</source>
        <translation>미리 채워진 GitHub 토큰 만들기 페이지 열기</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>토큰(&amp;T):</translation>
    </message>
    <message>
        <source>&amp;Sign in</source>
        <translation>로그인(&amp;S)</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>승인 대기 중</translation>
    </message>
    <message>
        <source>Continue read-only</source>
        <translation>읽기 전용으로 계속</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>다시 확인</translation>
    </message>
    <message>
        <source>Try it in practice mode</source>
        <translation>연습 모드로 둘러보기</translation>
    </message>
    <message>
        <source>Try it in practice mode: a practice copy on this computer, no sign-in</source>
        <translation>연습 모드로 둘러보기: 이 컴퓨터의 연습용 사본, 로그인 필요 없음</translation>
    </message>
    <message>
        <source>Opens a practice brochure on this computer. Nothing reaches the real site.</source>
        <translation>이 컴퓨터에 있는 연습용 브로슈어를 엽니다. 실제 사이트에는 아무것도 바뀌지 않습니다.</translation>
    </message>
    <message>
        <source>New here? Look around a practice brochure first, without signing in.</source>
        <translation>처음이신가요? 로그인하지 않고 연습용 브로슈어부터 둘러볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Modu Desktop saves your work to the brochure repository &lt;b&gt;{repo}&lt;/b&gt; on GitHub, so it needs to know who you are.</source>
        <translation>모두 데스크톱은 작업한 내용을 GitHub의 브로슈어 저장소 &lt;b&gt;{repo}&lt;/b&gt;에 저장합니다. 그래서 먼저 누구인지 확인해야 합니다.</translation>
    </message>
    <message>
        <source>Press &lt;b&gt;Create a token&lt;/b&gt;. GitHub's page opens with the name, description, owner (&lt;b&gt;{owner}&lt;/b&gt;), expiry (90 days) and permissions (Contents: read and write, Actions: read) already filled in.</source>
        <translation>&lt;b&gt;토큰 만들기&lt;/b&gt;를 누르세요. GitHub 페이지가 열리고 이름, 설명, 소유자(&lt;b&gt;{owner}&lt;/b&gt;), 기간(90일), 권한(Contents 읽기·쓰기, Actions 읽기)이 미리 채워져 있습니다.</translation>
    </message>
    <message>
        <source>One thing to choose yourself: under &lt;b&gt;Repository access&lt;/b&gt; pick &lt;b&gt;Only select repositories&lt;/b&gt; and choose &lt;b&gt;{name}&lt;/b&gt;.</source>
        <translation>직접 고를 것은 하나뿐입니다. &lt;b&gt;Repository access&lt;/b&gt;에서 &lt;b&gt;Only select repositories&lt;/b&gt;를 누르고 &lt;b&gt;{name}&lt;/b&gt; 저장소를 고르세요.</translation>
    </message>
    <message>
        <source>Press &lt;b&gt;Generate token&lt;/b&gt; at the bottom and copy the token (it starts with github_pat_ and is shown only once).</source>
        <translation>맨 아래 &lt;b&gt;Generate token&lt;/b&gt;을 누르고 나타난 토큰을 복사하세요(github_pat_로 시작하며, 한 번만 보입니다).</translation>
    </message>
    <message>
        <source>Paste it below and press &lt;b&gt;Sign in&lt;/b&gt;.</source>
        <translation>아래 칸에 붙여 넣고 &lt;b&gt;로그인&lt;/b&gt;을 누르세요.</translation>
    </message>
    <message>
        <source>The token works, but it cannot save yet: the organization {owner} has to approve new tokens first. Ask one of its owners to approve “{token}” (Settings → Personal access tokens → Pending requests), then press Check again. Until then you can look around read-only.</source>
        <translation>토큰은 확인됐지만 아직 저장할 수 없습니다. {owner} 기관은 새 토큰을 관리자가 승인해야 쓸 수 있습니다. 기관 관리자에게 “{token}” 토큰의 승인을 부탁하세요(Settings → Personal access tokens → Pending requests). 승인되면 ‘다시 확인’을 누르세요. 그동안은 읽기 전용으로 둘러볼 수 있습니다.</translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <source>Compare versions</source>
        <translation>버전 비교</translation>
    </message>
    <message>
        <source>Someone else saved this document</source>
        <translation>다른 사람이 이 문서를 먼저 저장했습니다</translation>
    </message>
    <message>
        <source>Your text (left) and the current version on the site (right) of “{doc}”.</source>
        <translation>“{doc}”의 내 글(왼쪽)과 사이트의 현재 버전(오른쪽)입니다.</translation>
    </message>
    <message>
        <source>While you were editing “{doc}”, a newer version was saved{by}. Nothing has been overwritten. Choose what to keep.</source>
        <translation>“{doc}”{doc:을} 편집하는 동안 새 버전이 저장되었습니다{by}. 아무것도 덮어쓰지 않았습니다. 어느 쪽을 남길지 고르세요.</translation>
    </message>
    <message>
        <source> by {who}</source>
        <translation> (저장한 사람: {who} 님)</translation>
    </message>
    <message>
        <source>Your version</source>
        <translation>내 버전</translation>
    </message>
    <message>
        <source>Current version on the site</source>
        <translation>사이트의 현재 버전</translation>
    </message>
    <message>
        <source>The two versions are identical.</source>
        <translation>두 버전이 같습니다.</translation>
    </message>
    <message>
        <source>Changed lines are highlighted.</source>
        <translation>달라진 줄은 색으로 표시됩니다.</translation>
    </message>
    <message>
        <source>&amp;Keep mine (overwrite theirs)</source>
        <translation>내 글 남기기 — 상대 글 덮어쓰기(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Take theirs (discard mine)</source>
        <translation>상대 글 받기 — 내 글 버리기(&amp;T)</translation>
    </message>
    <message>
        <source>Save mine as a &amp;new document</source>
        <translation>내 글을 새 문서로 저장(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>닫기(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
</context>
<context>
    <name>DocList</name>
    <message>
        <source>You (this window)</source>
        <translation>나 (이 창)</translation>
    </message>
    <message>
        <source>⚠ unreadable lock</source>
        <translation>⚠ 읽을 수 없는 잠금 파일</translation>
    </message>
    <message>
        <source>{who} started at {since}; no sign of life since {beat} (inactive).</source>
        <translation>{who} 님이 {since}에 편집을 시작했지만 {beat} 이후로 응답이 없습니다.</translation>
    </message>
    <message>
        <source>{who} is editing since {since}; last sign of life {beat}.</source>
        <translation>{who} 님이 {since}부터 편집하고 있습니다. 마지막 응답: {beat}.</translation>
    </message>
    <message>
        <source>{who} · inactive</source>
        <translation>{who} · 응답 없음</translation>
    </message>
    <message>
        <source>You, elsewhere · {since}</source>
        <translation>나 (다른 곳) · {since}부터</translation>
    </message>
    <message>
        <source>{who} · {since}</source>
        <translation>{who} · {since}부터</translation>
    </message>
</context>
<context>
    <name>DocListPanel</name>
    <message>
        <source>&amp;Filter:</source>
        <translation>찾기(&amp;F):</translation>
    </message>
    <message>
        <source>Type to filter by title or file</source>
        <translation>제목이나 파일 이름으로 찾기</translation>
    </message>
    <message>
        <source>Filter documents</source>
        <translation>문서 찾기</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>새로 고침</translation>
    </message>
    <message>
        <source>Refresh the document list</source>
        <translation>문서 목록 새로 고침</translation>
    </message>
    <message>
        <source>Refresh (F5)</source>
        <translation>새로 고침 (F5)</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>#</source>
        <translation>순서</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>제목</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Editing</source>
        <translation>편집 중</translation>
    </message>
    <message>
        <source>Document list status</source>
        <translation>문서 목록 상태</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>열기(&amp;O)</translation>
    </message>
    <message>
        <source>Open the selected document</source>
        <translation>선택한 문서 열기</translation>
    </message>
    <message>
        <source>Loading the document list…</source>
        <translation>문서 목록을 불러오는 중…</translation>
    </message>
    <message>
        <source>Could not refresh the list: {msg}</source>
        <translation>목록을 새로 고치지 못했습니다: {msg}</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s)</source>
        <translation><numerusform>문서 %n개</numerusform></translation>
    </message>
</context>
<context>
    <name>EditorPane</name>
    <message>
        <source>Document text (Markdown)</source>
        <translation>문서 본문 (마크다운)</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>미리 보기</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>F&amp;ind:</source>
        <translation>찾기(&amp;I):</translation>
    </message>
    <message>
        <source>Text to find</source>
        <translation>찾을 글자</translation>
    </message>
    <message>
        <source>Re&amp;place with:</source>
        <translation>바꿀 글자(&amp;P):</translation>
    </message>
    <message>
        <source>Replacement text</source>
        <translation>바꿀 글자</translation>
    </message>
    <message>
        <source>&amp;Match case</source>
        <translation>대소문자 구분(&amp;M)</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>대소문자 구분</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>이전</translation>
    </message>
    <message>
        <source>Find previous</source>
        <translation>이전 찾기</translation>
    </message>
    <message>
        <source>Find previous (Shift+F3)</source>
        <translation>이전 찾기 (Shift+F3)</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>다음(&amp;N)</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>다음 찾기</translation>
    </message>
    <message>
        <source>Find next (F3)</source>
        <translation>다음 찾기 (F3)</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>바꾸기(&amp;R)</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>바꾸기</translation>
    </message>
    <message>
        <source>Replace &amp;all</source>
        <translation>모두 바꾸기(&amp;A)</translation>
    </message>
    <message>
        <source>Replace all</source>
        <translation>모두 바꾸기</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Close find bar</source>
        <translation>찾기 막대 닫기</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>닫기 (Esc)</translation>
    </message>
    <message>
        <source>Wrapped around</source>
        <translation>처음부터 다시 찾았습니다</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>찾지 못했습니다</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation><numerusform>%n곳을 바꿨습니다</numerusform></translation>
    </message>
</context>
<context>
    <name>FrontMatterForm</name>
    <message>
        <source>Page settings</source>
        <translation>페이지 설정</translation>
    </message>
    <message>
        <source>Page settings (front matter)</source>
        <translation>페이지 설정 (프론트매터)</translation>
    </message>
    <message>
        <source>last</source>
        <translation>맨 뒤</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(기본값)</translation>
    </message>
    <message>
        <source>T&amp;heme:</source>
        <translation>색상 테마(&amp;H):</translation>
    </message>
    <message>
        <source>&amp;Layout:</source>
        <translation>레이아웃(&amp;L):</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>제목(&amp;T):</translation>
    </message>
    <message>
        <source>&amp;Menu label:</source>
        <translation>메뉴 이름(&amp;M):</translation>
    </message>
    <message>
        <source>&amp;Order:</source>
        <translation>순서(&amp;O):</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>제목</translation>
    </message>
    <message>
        <source>Menu label (nav_label)</source>
        <translation>메뉴 이름 (nav_label)</translation>
    </message>
    <message>
        <source>Order in the menu (sidebar_position)</source>
        <translation>메뉴 순서 (sidebar_position)</translation>
    </message>
    <message>
        <source>Colour theme</source>
        <translation>색상 테마</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>레이아웃</translation>
    </message>
</context>
<context>
    <name>LockDialog</name>
    <message>
        <source>The lock of “{doc}” changed while you were taking it over.</source>
        <translation>편집 권한을 가져오는 사이에 “{doc}”의 편집 상태가 바뀌었습니다.</translation>
    </message>
    <message>
        <source>You ({who}) started editing “{doc}” in another window just before this one.</source>
        <translation>방금 다른 창에서 내 계정({who})으로 “{doc}” 편집을 시작했습니다.</translation>
    </message>
    <message>
        <source>Someone else started editing “{doc}” just before you.</source>
        <translation>방금 다른 사람이 “{doc}” 편집을 먼저 시작했습니다.</translation>
    </message>
    <message>
        <source>{who} started editing “{doc}” just before you took over.</source>
        <translation>편집 권한을 가져오기 직전에 {who} 님이 “{doc}” 편집을 시작했습니다.</translation>
    </message>
    <message>
        <source>Document in use</source>
        <translation>편집 중인 문서</translation>
    </message>
    <message>
        <source>You ({who}) are already editing “{doc}” in another window or on another computer.</source>
        <translation>내 계정({who})으로 다른 창이나 다른 컴퓨터에서 이미 “{doc}”{doc:을} 편집하고 있습니다.</translation>
    </message>
    <message>
        <source>If you edit here, the other window will switch to read-only at its next check. Unsaved changes there stay on that screen.</source>
        <translation>여기서 편집하면 다른 창은 다음 확인 때 읽기 전용으로 바뀝니다. 그 창에서 저장하지 않은 내용은 그 화면에 남아 있습니다.</translation>
    </message>
    <message>
        <source>“{doc}” has a lock file that cannot be read.</source>
        <translation>“{doc}”의 잠금 파일을 읽을 수 없습니다.</translation>
    </message>
    <message>
        <source>Someone may be editing it. Open it read-only unless you are sure.</source>
        <translation>누군가 편집하고 있을 수 있습니다. 확실하지 않으면 읽기 전용으로 여세요.</translation>
    </message>
    <message>
        <source>{who} is editing “{doc}” right now.</source>
        <translation>지금 {who} 님이 “{doc}”{doc:을} 편집하고 있습니다.</translation>
    </message>
    <message>
        <source>Two people editing at once would overwrite each other's work.</source>
        <translation>두 사람이 동시에 편집하면 서로의 작업을 덮어쓰게 됩니다.</translation>
    </message>
    <message>
        <source>Started: {start}
Last sign of life: {beat}</source>
        <translation>편집 시작: {start}
마지막 응답: {beat}</translation>
    </message>
    <message>
        <source>Open &amp;read-only</source>
        <translation>읽기 전용으로 열기(&amp;R)</translation>
    </message>
    <message>
        <source>Open read-only</source>
        <translation>읽기 전용으로 열기</translation>
    </message>
    <message>
        <source>&amp;Edit here instead</source>
        <translation>여기서 편집하기(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Take over editing</source>
        <translation>편집 권한 가져오기(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Edit here and switch your other window to read-only?</source>
        <translation>여기서 편집하고 다른 창은 읽기 전용으로 바꿀까요?</translation>
    </message>
    <message>
        <source>Take over editing from {who}? {who} will be switched to read-only and cannot save there any more. Their unsaved text stays on their screen.</source>
        <translation>{who} 님의 편집 권한을 가져올까요? {who} 님의 화면은 읽기 전용으로 바뀌어 더 이상 저장할 수 없습니다. 저장하지 않은 글은 그 화면에 그대로 남습니다.</translation>
    </message>
    <message>
        <source>Take over editing?</source>
        <translation>편집 권한을 가져올까요?</translation>
    </message>
    <message>
        <source>Take over</source>
        <translation>가져오기</translation>
    </message>
</context>
<context>
    <name>LockText</name>
    <message>
        <source>just now</source>
        <translation>방금</translation>
    </message>
    <message>
        <source>{n} min ago</source>
        <translation>{n}분 전</translation>
    </message>
    <message>
        <source>{n} h ago</source>
        <translation>{n}시간 전</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>No password store (keyring) on this computer: your token is kept only until you quit.</source>
        <translation>이 컴퓨터에는 암호 저장소(키링)가 없어서 토큰은 프로그램을 끝낼 때까지만 보관됩니다.</translation>
    </message>
    <message>
        <source>GitHub did not answer in time.</source>
        <translation>GitHub이 제시간에 응답하지 않았습니다.</translation>
    </message>
    <message>
        <source>Practice mode — nothing you do here reaches the real site</source>
        <translation>연습 모드 — 실제 사이트에는 반영되지 않습니다</translation>
    </message>
    <message>
        <source>Viewer mode: you can read documents but not change them.</source>
        <translation>보기 전용 모드: 문서를 읽을 수는 있지만 바꿀 수는 없습니다.</translation>
    </message>
    <message>
        <source>Viewer mode: your account ({login}) can read this repository but not change it, so documents open read-only.</source>
        <translation>보기 전용 모드: 내 계정({login})은 이 저장소를 읽을 수만 있고 바꿀 수는 없어서 문서가 읽기 전용으로 열립니다.</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Choose a document on the left and press Enter (or double-click) to open it.</source>
        <translation>왼쪽에서 문서를 고르고 Enter 키를 누르거나 두 번 클릭하면 열립니다.</translation>
    </message>
    <message>
        <source>&amp;Copy my text</source>
        <translation>내 글 복사(&amp;C)</translation>
    </message>
    <message>
        <source>Save as &amp;new document</source>
        <translation>새 문서로 저장(&amp;N)</translation>
    </message>
    <message>
        <source>Co&amp;mpare with current version</source>
        <translation>현재 버전과 비교(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Restore my text</source>
        <translation>내 글 되살리기(&amp;R)</translation>
    </message>
    <message>
        <source>Discard it</source>
        <translation>버리기</translation>
    </message>
    <message>
        <source>Lock state</source>
        <translation>편집 권한 상태</translation>
    </message>
    <message>
        <source>Publishing state</source>
        <translation>게시 상태</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>연결 상태</translation>
    </message>
    <message>
        <source>{login} · {repo}</source>
        <translation>{login} · {repo}</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open selected document</source>
        <translation>선택한 문서 열기(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>저장(&amp;S)</translation>
    </message>
    <message>
        <source>Save as &amp;new document…</source>
        <translation>새 문서로 저장(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Close document</source>
        <translation>문서 닫기(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Refresh list</source>
        <translation>목록 새로 고침(&amp;R)</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>로그아웃(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>편집(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>실행 취소(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>다시 실행(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>찾기(&amp;F)…</translation>
    </message>
    <message>
        <source>R&amp;eplace…</source>
        <translation>바꾸기(&amp;E)…</translation>
    </message>
    <message>
        <source>Find &amp;next</source>
        <translation>다음 찾기(&amp;N)</translation>
    </message>
    <message>
        <source>Find &amp;previous</source>
        <translation>이전 찾기(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>Follow the computer</source>
        <translation>컴퓨터 설정 따르기</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>이동(&amp;G)</translation>
    </message>
    <message>
        <source>Document &amp;list</source>
        <translation>문서 목록(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation>찾기 칸(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Editor</source>
        <translation>편집기(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Page settings</source>
        <translation>페이지 설정(&amp;P)</translation>
    </message>
    <message>
        <source>The language changes the next time Modu Desktop starts.</source>
        <translation>언어는 모두 데스크톱을 다음에 시작할 때 바뀝니다.</translation>
    </message>
    <message>
        <source>● Connected</source>
        <translation>● 연결됨</translation>
    </message>
    <message>
        <source>⚠ Connection problem</source>
        <translation>⚠ 연결 문제</translation>
    </message>
    <message>
        <source>⚠ Not connected to GitHub</source>
        <translation>⚠ GitHub에 연결되지 않음</translation>
    </message>
    <message>
        <source>Modu Desktop</source>
        <translation>모두 데스크톱</translation>
    </message>
    <message>
        <source>Modu Desktop (practice)</source>
        <translation>모두 데스크톱 (연습)</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation> (읽기 전용)</translation>
    </message>
    <message>
        <source> (lock lost)</source>
        <translation> (편집 권한 잃음)</translation>
    </message>
    <message>
        <source>This document cannot be saved here.</source>
        <translation>이 문서는 여기서 저장할 수 없습니다.</translation>
    </message>
    <message>
        <source>not connected to GitHub</source>
        <translation>GitHub에 연결되지 않음</translation>
    </message>
    <message>
        <source>There is no document “{doc}” in the repository.</source>
        <translation>저장소에 “{doc}” 문서가 없습니다.</translation>
    </message>
    <message>
        <source>Checking whether someone is editing “{doc}”…</source>
        <translation>누가 “{doc}”{doc:을} 편집하고 있는지 확인하는 중…</translation>
    </message>
    <message>
        <source>{who} had left “{doc}” without a sign of life since {beat}, so you have taken over editing.</source>
        <translation>{beat} 이후로 {who} 님의 응답이 없어 “{doc}”의 편집 권한을 가져왔습니다.</translation>
    </message>
    <message>
        <source>“{doc}” is in use</source>
        <translation>다른 사람이 “{doc}”{doc:을} 편집하고 있습니다</translation>
    </message>
    <message>
        <source>You ({login}) took over editing in another window at {when}, so this document is read-only here. Your text is still here: copy it, save it as a new document, or compare it.</source>
        <translation>{when}에 다른 창에서 내 계정({login})으로 편집 권한을 가져가서 이 창의 문서는 읽기 전용이 되었습니다. 내 글은 그대로 있습니다. 복사하거나, 새 문서로 저장하거나, 비교해 보세요.</translation>
    </message>
    <message>
        <source>Not saved: not connected to GitHub (the lock could not be checked). Your text is still here; save again when the connection is back.</source>
        <translation>저장하지 못했습니다: GitHub에 연결되지 않음(편집 권한을 확인하지 못했습니다). 내 글은 그대로 있습니다. 연결되면 다시 저장하세요.</translation>
    </message>
    <message>
        <source>Publishing: waiting</source>
        <translation>게시 대기 중</translation>
    </message>
    <message>
        <source>Publishing: building the site…</source>
        <translation>게시하는 중…</translation>
    </message>
    <message>
        <source>Not published (skipped)</source>
        <translation>게시 안 함 (건너뜀)</translation>
    </message>
    <message>
        <source>Publishing status unknown</source>
        <translation>게시 상태 알 수 없음</translation>
    </message>
    <message>
        <source>Could not start editing “{doc}”: others keep changing its lock. Try again.</source>
        <translation>“{doc}” 편집을 시작하지 못했습니다. 다른 사람이 편집 권한을 계속 바꾸고 있습니다. 잠시 뒤 다시 시도해 주세요.</translation>
    </message>
    <message>
        <source>Could not open “{doc}”: {msg}</source>
        <translation>“{doc}”{doc:을} 열지 못했습니다. {msg}</translation>
    </message>
    <message>
        <source>You are editing “{doc}”</source>
        <translation>“{doc}”{doc:을} 편집하고 있습니다</translation>
    </message>
    <message>
        <source>Read-only: {who} is editing this document. You can read and copy, not change.</source>
        <translation>읽기 전용: {who} 님이 이 문서를 편집하고 있습니다. 읽고 복사할 수는 있지만 고칠 수는 없습니다.</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>읽기 전용</translation>
    </message>
    <message>
        <source>Viewer mode — read-only</source>
        <translation>보기 전용 모드</translation>
    </message>
    <message>
        <source>“{doc}” was still open when the app stopped: your lock and your unsaved text are back.</source>
        <translation>프로그램이 멈췄을 때 “{doc}”{doc:이} 열려 있었습니다. 편집 권한과 저장하지 않은 글을 되찾았습니다.</translation>
    </message>
    <message>
        <source>Unsaved text of “{doc}” from {when} was kept when the app closed. Restore it to keep working on it, or discard it.</source>
        <translation>프로그램이 닫힐 때 저장하지 않은 “{doc}”의 글({when})을 보관해 두었습니다. 되살려서 이어서 작업하거나 버릴 수 있습니다.</translation>
    </message>
    <message>
        <source>You are editing “{doc}” · lock renewed at {time}</source>
        <translation>“{doc}” 편집 중 · {time}에 편집 권한을 갱신했습니다</translation>
    </message>
    <message>
        <source>Not connected to GitHub: your editing lock was not renewed ({n} tries). If the connection is not back within {m} min, others may take over editing. Keep this window open: your text is safe here.</source>
        <translation>GitHub에 연결되지 않음: 편집 권한을 갱신하지 못했습니다({n}번 시도). {m}분 안에 연결되지 않으면 다른 사람이 편집 권한을 가져갈 수 있습니다. 이 창을 닫지 마세요. 글은 여기에 안전하게 남아 있습니다.</translation>
    </message>
    <message>
        <source>Not connected to GitHub: your editing lock was not renewed ({n} tries) and has expired, so others may take over editing now. Keep this window open: your text is safe here.</source>
        <translation>GitHub에 연결되지 않음: 편집 권한을 갱신하지 못했고({n}번 시도) 권한이 만료되어 이제 다른 사람이 가져갈 수 있습니다. 이 창을 닫지 마세요. 글은 여기에 안전하게 남아 있습니다.</translation>
    </message>
    <message>
        <source>Someone released your lock on this document, so it is read-only now. Your text is still here: copy it, save it as a new document, or compare it.</source>
        <translation>누군가 이 문서의 편집 권한을 해제해서 지금은 읽기 전용입니다. 내 글은 그대로 있습니다. 복사하거나, 새 문서로 저장하거나, 비교해 보세요.</translation>
    </message>
    <message>
        <source>{who} took over editing at {when}, so this document is read-only now. Your text is still here: copy it, save it as a new document, or compare it.</source>
        <translation>{who} 님이 {when}에 편집 권한을 가져가서 이 문서는 지금 읽기 전용입니다. 내 글은 그대로 있습니다. 복사하거나, 새 문서로 저장하거나, 비교해 보세요.</translation>
    </message>
    <message>
        <source>Lock lost — read-only</source>
        <translation>편집 권한 잃음 — 읽기 전용</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>저장하는 중…</translation>
    </message>
    <message>
        <source>Not saved: you no longer hold the lock on this document.</source>
        <translation>저장하지 못했습니다. 이 문서의 편집 권한을 잃었습니다.</translation>
    </message>
    <message>
        <source>✔ Saved “{doc}”</source>
        <translation>✔ “{doc}”{doc:을} 저장했습니다</translation>
    </message>
    <message>
        <source>Not saved: {msg} Your text is still here.</source>
        <translation>저장하지 못했습니다. {msg} 내 글은 그대로 있습니다.</translation>
    </message>
    <message>
        <source>Showing the current version of “{doc}”</source>
        <translation>“{doc}”의 현재 버전을 보여 주고 있습니다</translation>
    </message>
    <message>
        <source>Your text was saved as “{new}”. This window now shows the current “{doc}”.</source>
        <translation>내 글을 “{new}”{new:으로} 저장했습니다. 이 창에는 이제 사이트에 있는 “{doc}”{doc:이} 보입니다.</translation>
    </message>
    <message>
        <source>Not saved (conflict): your text is still here.</source>
        <translation>저장하지 않았습니다(충돌). 내 글은 그대로 있습니다.</translation>
    </message>
    <message>
        <source>✔ Published</source>
        <translation>✔ 게시됨</translation>
    </message>
    <message>
        <source>✖ Publishing failed</source>
        <translation>✖ 게시 실패</translation>
    </message>
    <message>
        <source>Your text is on the clipboard.</source>
        <translation>내 글을 클립보드에 복사했습니다.</translation>
    </message>
    <message>
        <source>Saved your text as the new document “{new}”.</source>
        <translation>내 글을 새 문서 “{new}”{new:으로} 저장했습니다.</translation>
    </message>
    <message>
        <source>Could not create “{new}”: {msg} Your text is still here.</source>
        <translation>“{new}”{new:을} 만들지 못했습니다. {msg} 내 글은 그대로 있습니다.</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>저장하지 않은 변경 사항</translation>
    </message>
    <message>
        <source>“{doc}” has changes that are not saved.</source>
        <translation>“{doc}”에 저장하지 않은 변경 사항이 있습니다.</translation>
    </message>
    <message>
        <source>&amp;Discard changes</source>
        <translation>변경 사항 버리기(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>Your changes to “{doc}” are not saved and you no longer hold its lock.</source>
        <translation>“{doc}”의 변경 사항을 저장하지 않았고, 편집 권한도 더 이상 없습니다.</translation>
    </message>
    <message>
        <source>Releasing the lock on “{doc}”…</source>
        <translation>“{doc}”의 편집 권한을 반납하는 중…</translation>
    </message>
</context>
<context>
    <name>NewDocDialog</name>
    <message>
        <source>Save as a new document</source>
        <translation>새 문서로 저장</translation>
    </message>
    <message>
        <source>Your text will be saved as a new document. The original is not changed.</source>
        <translation>내 글을 새 문서로 저장합니다. 원래 문서는 바뀌지 않습니다.</translation>
    </message>
    <message>
        <source>New file name (without .md)</source>
        <translation>새 파일 이름 (.md 제외)</translation>
    </message>
    <message>
        <source>&amp;File name:</source>
        <translation>파일 이름(&amp;F):</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>저장</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Use letters, numbers and dashes, for example 09-new-page.</source>
        <translation>영문자, 숫자, 하이픈(-)만 쓸 수 있습니다. 예: 09-new-page</translation>
    </message>
    <message>
        <source>A document with this name already exists.</source>
        <translation>같은 이름의 문서가 이미 있습니다.</translation>
    </message>
</context>
<context>
    <name>OpsHost</name>
    <message>
        <source>Uploading {name}…</source>
        <translation>{name} 올리는 중…</translation>
    </message>
    <message>
        <source>&amp;Document</source>
        <translation>문서(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New document…</source>
        <translation>새 문서(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Import Markdown files…</source>
        <translation>마크다운 파일 가져오기(&amp;I)…</translation>
    </message>
    <message>
        <source>Move &amp;up in the menu</source>
        <translation>메뉴에서 위로 옮기기(&amp;U)</translation>
    </message>
    <message>
        <source>Move &amp;down in the menu</source>
        <translation>메뉴에서 아래로 옮기기(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Delete document…</source>
        <translation>문서 삭제(&amp;D)…</translation>
    </message>
    <message>
        <source>Insert &amp;picture…</source>
        <translation>그림 넣기(&amp;P)…</translation>
    </message>
    <message>
        <source>Select a document in the list first.</source>
        <translation>먼저 목록에서 문서를 고르세요.</translation>
    </message>
</context>
<context>
    <name>SignInWidget</name>
    <message>
        <source>Sign in — Modu Desktop</source>
        <translation>로그인 — 모두 데스크톱</translation>
    </message>
    <message>
        <source>Sign in to Modu Desktop</source>
        <translation>모두 데스크톱 로그인</translation>
    </message>
    <message>
        <source>Classic token page</source>
        <translation>클래식 토큰 페이지</translation>
    </message>
    <message>
        <source>Open GitHub's page to create a classic token</source>
        <translation>클래식 토큰을 만드는 GitHub 페이지 열기</translation>
    </message>
    <message>
        <source>github_pat_… or ghp_…</source>
        <translation>github_pat_… 또는 ghp_…</translation>
    </message>
    <message>
        <source>Personal access token</source>
        <translation>개인 액세스 토큰</translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation>로그인</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>끝내기</translation>
    </message>
    <message>
        <source>Code to type on GitHub</source>
        <translation>GitHub에 입력할 코드</translation>
    </message>
    <message>
        <source>Sign-in message</source>
        <translation>로그인 안내</translation>
    </message>
    <message>
        <source>Server and repository</source>
        <translation>서버와 저장소</translation>
    </message>
    <message>
        <source>GitHub API address</source>
        <translation>GitHub API 주소</translation>
    </message>
    <message>
        <source>Repository (owner/name)</source>
        <translation>저장소 (소유자/이름)</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>브랜치</translation>
    </message>
    <message>
        <source>&amp;API address:</source>
        <translation>API 주소(&amp;A):</translation>
    </message>
    <message>
        <source>Re&amp;pository:</source>
        <translation>저장소(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Branch:</source>
        <translation>브랜치(&amp;B):</translation>
    </message>
    <message>
        <source>GitHub Enterprise: use https://YOUR-SERVER/api/v3. Change only if your office told you to.</source>
        <translation>GitHub Enterprise라면 주소를 https://서버주소/api/v3 형식으로 입력하세요. 담당 부서에서 안내한 경우에만 바꾸세요.</translation>
    </message>
    <message>
        <source>The token will be kept in this computer's password store (keyring).</source>
        <translation>토큰은 이 컴퓨터의 암호 저장소(키링)에 보관됩니다.</translation>
    </message>
    <message>
        <source>This computer has no password store (keyring), so the token is kept only until you quit; you will paste it again next time.</source>
        <translation>이 컴퓨터에는 암호 저장소(키링)가 없어서 토큰은 프로그램을 끝낼 때까지만 보관됩니다. 다음에 다시 붙여 넣어야 합니다.</translation>
    </message>
    <message>
        <source>Signing in with the browser is not available in this version; please use a token.</source>
        <translation>이 버전에서는 브라우저 로그인을 쓸 수 없습니다. 토큰을 사용하세요.</translation>
    </message>
    <message>
        <source>Type this code on the GitHub page that opened ({url}) and approve. It is on the clipboard too.</source>
        <translation>열린 GitHub 페이지({url})에 이 코드를 입력하고 승인하세요. 코드는 클립보드에도 복사해 두었습니다.</translation>
    </message>
    <message>
        <source>The API address must start with https://.</source>
        <translation>API 주소는 https://로 시작해야 합니다.</translation>
    </message>
    <message>
        <source>The repository must look like owner/name.</source>
        <translation>저장소는 소유자/이름 형식이어야 합니다.</translation>
    </message>
    <message>
        <source>Checking the token with GitHub…</source>
        <translation>GitHub에서 토큰을 확인하는 중…</translation>
    </message>
    <message>
        <source>Paste the token first.</source>
        <translation>먼저 토큰을 붙여 넣으세요.</translation>
    </message>
    <message>
        <source>Sign-in failed.</source>
        <translation>로그인하지 못했습니다.</translation>
    </message>
    <message>
        <source>Signed in as {login}.</source>
        <translation>{login} 계정으로 로그인했습니다.</translation>
    </message>
</context>
</TS>