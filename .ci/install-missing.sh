# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the CI steps.  install_missing PKG...: apt-get installs the
# Debian packages that are not installed yet (CI runs as root on a fresh
# machine); sets INSTALLED to what it installed (empty if nothing).
install_missing() {
    local pkg
    INSTALLED=
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || INSTALLED="$INSTALLED $pkg"
    done
    [ -n "$INSTALLED" ] || return 0
    echo "=== $(basename "$0" .sh): installing$INSTALLED"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $INSTALLED
}
