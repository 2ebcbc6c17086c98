#!/usr/bin/env bash
# Import the Developer ID Application certificate into a temporary keychain (CI only).
#
# Needs MACOS_CERTIFICATE_P12 (base64 of the .p12) and MACOS_CERTIFICATE_PASSWORD. Without them it
# prints "skipping signing: …" and exits 0, so unsigned builds still work.
set -euo pipefail

if [ -z "${MACOS_CERTIFICATE_P12:-}" ] || [ -z "${MACOS_CERTIFICATE_PASSWORD:-}" ]; then
  echo "skipping signing: MACOS_CERTIFICATE_P12 / MACOS_CERTIFICATE_PASSWORD are not set" \
       "(the app keeps an ad-hoc signature and is not notarised)"
  exit 0
fi

keychain="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/modu-signing.keychain-db"
keychain_password="$(uuidgen)"
p12="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/modu-signing.p12"

printf '%s' "$MACOS_CERTIFICATE_P12" | base64 --decode > "$p12"
security create-keychain -p "$keychain_password" "$keychain"
security set-keychain-settings -lut 21600 "$keychain"
security unlock-keychain -p "$keychain_password" "$keychain"
security import "$p12" -k "$keychain" -P "$MACOS_CERTIFICATE_PASSWORD" \
  -T /usr/bin/codesign -T /usr/bin/security
security set-key-partition-list -S apple-tool:,apple:,codesign: -s -k "$keychain_password" "$keychain" >/dev/null
# Put it first in the search list, keep the existing keychains (login…) after it.
existing=()
while IFS= read -r line; do
  line="${line//\"/}"
  line="${line#"${line%%[![:space:]]*}"}"
  if [ -n "$line" ]; then existing+=("$line"); fi
done < <(security list-keychains -d user)
security list-keychains -d user -s "$keychain" "${existing[@]}"
rm -f "$p12"
echo "imported signing certificate into $keychain:"
security find-identity -v -p codesigning "$keychain"
