"""Names vulture cannot see used (``uv run vulture``; settings in pyproject's [tool.vulture]).

Only names that a library calls or reads by name belong here, each under the library that does,
and the references kept only so that an object stays alive. Vulture reads this file, never runs
it; ``_`` stands for any object.
"""

# ruff: noqa: B018 - each line names a name for vulture; nothing is evaluated

_ = object()

# Qt calls the overrides of its virtual methods by name.
_.acceptNavigationRequest
_.closeEvent
_.columnCount
_.contextMenuEvent
_.createEditor
_.createWindow
_.dragEnterEvent
_.dropEvent
_.expandingDirections
_.headerData
_.heightForWidth
_.highlightBlock
_.insertFromMimeData
_.interceptRequest
_.javaScriptConsoleMessage
_.paint
_.paintEvent
_.paintSection
_.requestStarted
_.setEditorData
_.setModelData

# The standard library calls or reads these by name: html.parser.HTMLParser's handlers,
# http.server's and socketserver's settings and hooks, tarfile's member fields.
_.handle_starttag
_.handle_endtag
_.handle_data
_.daemon_threads
_.request_queue_size
_.allow_reuse_address
_.protocol_version
_.server_version
_.sys_version
_.version_string
_.date_time_string
_.log_message
_.do_DELETE
_.do_HEAD
_.do_OPTIONS
_.do_PATCH
_.do_POST
_.do_PUT
_.close_connection
_.linkname
_.gname
_.uname

# Other libraries: httpx.Auth's flow, markdown-it's link hooks, a keyring backend's priority,
# Selenium's browser path.
_.auth_flow
_.normalizeLink
_.validateLink
_.priority
_.binary_location

# pytest reads these by name (fixtures are known by their decorator, see [tool.vulture]).
_.pytest_configure
_.pytest_runtest_makereport
_.pytestmark
_.pytest_plugins

# A typing.Protocol of a callable.
_.__call__

# Held only so that the object lives as long as its owner: Qt and asyncio let go of what
# nobody holds (the editor's highlighter, the preview's style task, the --quit-after timer).
_.highlighter
_._style_task
_._time_up
