#!/usr/bin/env bash
# Build the Linux one-folder bundle with the same spec as the Windows/macOS releases and run its
# self-test offscreen. Not part of `uv run pytest` (it takes ~30 s and ~150 MB).
#
#   installer/build_linux.sh            # -> dist/modu-desktop/modu-desktop
#
# Prints the build time and the bundle size at the end. Exit status: non-zero if the build or the
# bundle's self-test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export UV_PYTHON_DOWNLOADS=never

dist="${DIST_DIR:-dist}"
work="${WORK_DIR:-build}"

start=$(date +%s.%N)
uv run --group bundle pyinstaller --noconfirm --clean \
  --distpath "$dist" --workpath "$work" installer/modu_desktop.spec
end=$(date +%s.%N)
build_s=$(python3 -c "print(f'{$end - $start:.1f}')")

bundle="$dist/modu-desktop"
echo
echo "== self-test of $bundle/modu-desktop (offscreen)"
st_start=$(date +%s.%N)
status=0
# A clean environment: nothing from the venv or the checkout may leak into the frozen app.
env -i HOME="$HOME" PATH=/usr/bin:/bin LANG="${LANG:-C.UTF-8}" QT_QPA_PLATFORM=offscreen \
  "$bundle/modu-desktop" --self-test || status=$?
st_end=$(date +%s.%N)

echo
echo "build time:     ${build_s} s"
echo "self-test time: $(python3 -c "print(f'{$st_end - $st_start:.1f}')") s"
echo "bundle size:    $(du -sh "$bundle" | cut -f1)  ($bundle)"
echo "self-test exit: $status"
exit "$status"
