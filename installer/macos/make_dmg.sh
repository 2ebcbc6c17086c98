#!/usr/bin/env bash
# Pack "dist/Modu Desktop.app" into dist/ModuDesktop-<version>-macOS.dmg (drag-to-Applications
# layout), then sign, notarise and staple it when the credentials exist.
#
#   installer/macos/make_dmg.sh ["path/to/Modu Desktop.app"] [out.dmg]
#
# Environment (all optional; each missing piece prints "skipping …" and the step is skipped):
#   MACOS_SIGN_IDENTITY   "Developer ID Application: Name (TEAMID)"; the .app itself is signed by
#                         PyInstaller during the build (installer/modu_desktop.spec), the .dmg here.
#   APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD   notarytool credentials (app-specific password).
set -euo pipefail
cd "$(dirname "$0")/../.."

app_name="$(python3 installer/bundle_config.py app-name)"
version="$(python3 installer/bundle_config.py version)"
app="${1:-dist/${app_name}.app}"
dmg="${2:-dist/ModuDesktop-${version}-macOS.dmg}"

[ -d "$app" ] || { echo "error: $app not found (build it first with the spec)" >&2; exit 1; }
plist_version="$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$app/Contents/Info.plist")"
if [ "$plist_version" != "$version" ]; then
  echo "error: $app is version $plist_version, the package is $version" >&2
  exit 1
fi

identity="${MACOS_SIGN_IDENTITY:-}"
if [ -n "$identity" ]; then
  echo "== verifying the app's signature"
  codesign --verify --deep --strict --verbose=2 "$app"
else
  echo "skipping signing: MACOS_SIGN_IDENTITY is not set (the .app has PyInstaller's ad-hoc" \
       "signature; first launch needs right-click > Open, and the .dmg is not notarised)"
fi

echo "== building $dmg"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
# ditto keeps symlinks, extended attributes and signatures intact (cp -R may not).
ditto "$app" "$staging/$(basename "$app")"
ln -s /Applications "$staging/Applications"
mkdir -p "$(dirname "$dmg")"
rm -f "$dmg"
hdiutil create -volname "$app_name" -srcfolder "$staging" -fs HFS+ -format UDZO -ov "$dmg"

if [ -n "$identity" ]; then
  codesign --force --timestamp --sign "$identity" "$dmg"
  if [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
    echo "== notarising (this waits for Apple, usually a few minutes)"
    xcrun notarytool submit "$dmg" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
      --password "$APPLE_APP_PASSWORD" --wait
    xcrun stapler staple "$dmg"
    xcrun stapler validate "$dmg"
    spctl --assess --type open --context context:primary-signature --verbose=2 "$dmg" || true
  else
    echo "skipping notarisation: APPLE_ID / APPLE_TEAM_ID / APPLE_APP_PASSWORD are not all set"
  fi
fi

hdiutil verify "$dmg"
echo "disk image: $dmg ($(du -h "$dmg" | cut -f1))"
