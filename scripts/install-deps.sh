#!/bin/sh
# Installs the build and test dependencies that are missing (Debian/Ubuntu).
set -eu

PACKAGES="build-essential pkg-config meson ninja-build libgtk-4-dev libglib2.0-dev \
libcairo2-dev libpcap-dev portaudio19-dev libjson-glib-dev libopus-dev libbcg729-dev \
libspandsp-dev libsndfile1-dev xvfb xauth gettext desktop-file-utils appstream \
appstream-util flatpak-builder tshark python3 sip-tester tcpdump \
zlib1g-dev libzstd-dev zstd libwiretap-dev libwsutil-dev libgsm1-dev libopencore-amrnb-dev \
libopencore-amrwb-dev libvo-amrwbenc-dev libspeex-dev libxml2-utils poppler-utils \
libpq-dev postgresql libsrtp2-dev libgnutls28-dev gnutls-bin librsvg2-bin valgrind binutils \
libglib2.0-bin libglib2.0-dev-bin dbus-daemon coreutils kamailio python3-websockets"

FEDORA="sudo dnf install gcc pkgconf meson ninja-build gtk4-devel glib2-devel cairo-devel \
libpcap-devel portaudio-devel json-glib-devel opus-devel bcg729-devel spandsp-devel \
libsndfile-devel xorg-x11-server-Xvfb xorg-x11-xauth gettext desktop-file-utils \
appstream libappstream-glib flatpak-builder wireshark-cli python3 sipp tcpdump \
zlib-devel libzstd-devel zstd wireshark-devel gsm-devel opencore-amr-devel vo-amrwbenc-devel \
speex-devel libpq-devel postgresql-server libsrtp-devel gnutls-devel gnutls-utils librsvg2-tools \
valgrind binutils dbus-daemon kamailio python3-websockets"

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "This is not a Debian/Ubuntu system. Install the dependencies yourself, e.g. on Fedora:"
  echo "  $FEDORA"
  exit 0
fi

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
echo "(Fedora equivalent: $FEDORA)"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections 2>/dev/null || true
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
