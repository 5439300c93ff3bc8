# shellcheck shell=bash
# container.sh - sourced by scripts/systemd-e2e.sh: boot a real systemd as PID 1 in a
# throwaway container made with plain unshare, enter it, tear it down.
#
# How (measured on the CI VM, notes/systemd-tests.md §1a):
#  - new pid/mount/uts/ipc/net/cgroup namespaces; the root is an overlay whose lower layer
#    is the HOST root (so the host's systemd, python3, gpsd and libraries are used) and
#    whose upper layer is a tmpfs: nothing is ever written to the host root;
#  - the container runs in its own cgroup2 sub-directory (a nested systemd must never
#    manage the host's cgroup root) which the cgroup namespace makes its "/";
#  - pivot_root, not chroot (the kernel refuses user namespaces, i.e. PrivateUsers=, to
#    chrooted processes); /sys read-only so udevd stays off; private loopback network.
# All mounts live in the container's mount namespace and vanish with it.
#
# API: ct_boot NAME  -> sets CT_PID1 (host PID of the container's systemd), CT_SHARE (host
#      dir visible inside as /mnt/e2e), CT_BOOT_MS; returns non-zero on failure.
#      ct COMMAND...   run a command inside the container (all namespaces, root).
#      ct_teardown     poweroff, SIGKILL PID 1 if needed (by PID), remove cgroup + scratch.

# shellcheck disable=SC2034  # CT_BOOT_MS is read by the sourcing script
CT_PID1=; CT_UPID=; CT_CG=; CT_DIR=; CT_SHARE=; CT_BOOT_MS=

# The cgroup2 hierarchy: pure v2 at /sys/fs/cgroup, or hybrid with v2 at .../unified.
ct_cgroup2_root() {
  if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then echo /sys/fs/cgroup
  elif [ -e /sys/fs/cgroup/unified/cgroup.procs ]; then echo /sys/fs/cgroup/unified
  else return 1; fi
}

# Can this machine make the namespaces we need? (prints the reason when not)
ct_can_boot() {
  local cgroot
  [ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
  if ! command -v unshare >/dev/null || ! command -v nsenter >/dev/null; then echo "util-linux unshare/nsenter missing"; return 1; fi
  [ -x /lib/systemd/systemd ] || { echo "no /lib/systemd/systemd on the host"; return 1; }
  cgroot=$(ct_cgroup2_root) || { echo "no cgroup2 hierarchy mounted"; return 1; }
  [ -w "$cgroot" ] || { echo "$cgroot not writable"; return 1; }
  grep -qw overlay /proc/filesystems || { echo "kernel has no overlayfs"; return 1; }
  timeout 10 unshare --fork --pid --mount --uts --ipc --net --cgroup --propagation private true 2>/dev/null \
    || { echo "unshare of pid/mount/uts/ipc/net/cgroup namespaces not permitted"; return 1; }
}

# Runs inside the new namespaces (as bash -c), builds the root and execs systemd.
# $1 = scratch dir (holds root/, ovl/, share/, console.log).
# shellcheck disable=SC2016  # expanded by the inner bash, not here
CT_INNER='
set -e
S=$1; R=$S/root
mount --make-rprivate /
mount -t tmpfs -o mode=755 tmpfs "$S/ovl"; mkdir "$S/ovl/upper" "$S/ovl/work"
mount -t overlay overlay -o "lowerdir=/,upperdir=$S/ovl/upper,workdir=$S/ovl/work" "$R"
# Boot only what the test needs: mask everything the host image enables (in the upper layer).
E=$R/etc/systemd/system
for w in multi-user sockets timers getty sysinit graphical network-online; do
  for u in "$E/$w.target.wants/"*; do if [ -e "$u" ] || [ -L "$u" ]; then ln -sf /dev/null "$E/$(basename "$u")"; fi; done
done
for u in console-getty.service getty.target systemd-timesyncd.service systemd-networkd.service \
         systemd-resolved.service ssh.service ssh.socket cron.service gpsd.service gpsd.socket \
         apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service systemd-pstore.service; do
  ln -sf /dev/null "$E/$u"; done
mkdir -p "$R/etc/systemd/journald.conf.d"; printf "[Journal]\nStorage=volatile\n" > "$R/etc/systemd/journald.conf.d/e2e.conf"
echo logbook-e2e > "$R/etc/hostname"; : > "$R/etc/machine-id"
rm -rf "$R/var/log/journal/"* "$R/var/lib/logbook" "$R/etc/logbook"
mkdir -p "$R/mnt/e2e"
mount -t proc  -o nosuid,nodev,noexec proc "$R/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$R/sys"
mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$R/sys/fs/cgroup"
mount -t tmpfs -o mode=755,nosuid tmpfs "$R/dev"
for n in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  IFS=: read -r name ma mi <<< "$n"; mknod -m 666 "$R/dev/$name" c "$ma" "$mi"; done
mkdir "$R/dev/pts" "$R/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$R/dev/pts"
ln -s pts/ptmx "$R/dev/ptmx"; ln -s /proc/self/fd "$R/dev/fd"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/dev/shm"
: > "$R/dev/console"; mount --bind "$S/console.log" "$R/dev/console"
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$R/run"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/tmp"
mount --bind "$S/share" "$R/mnt/e2e"
mkdir -p "$R/.oldroot"; cd "$R"; pivot_root . .oldroot; cd /; umount -l /.oldroot; rmdir /.oldroot
exec /usr/bin/env -i container=unshare TERM=dumb /lib/systemd/systemd --system --unit=multi-user.target
'

# Every command is bounded: CT_TIMEOUT seconds (default 60), then SIGKILL of the nsenter'd
# command (which runs in the container; the container itself stays up).
ct() { timeout -k 5 "${CT_TIMEOUT:-60}" nsenter -t "$CT_PID1" -m -p -u -i -n -C -r -w "$@"; }

# ct_boot NAME: boot a container; NAME only labels the cgroup.
ct_boot() {
  local name=$1 cgroot self t0 state _
  cgroot=$(ct_cgroup2_root) || return 1
  # Our own cgroup (a systemd host puts us in a session scope; a bare VM in "/").
  self=$(sed -n 's/^0:://p' /proc/self/cgroup)
  CT_CG=$cgroot${self%/}/logbook-e2e-$name-$$
  CT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/logbook-e2e.XXXXXX")
  CT_SHARE=$CT_DIR/share
  mkdir -p "$CT_DIR/root" "$CT_DIR/ovl" "$CT_SHARE"; : > "$CT_DIR/console.log"
  mkdir "$CT_CG" || { echo "cannot create cgroup $CT_CG" >&2; return 1; }
  t0=$(date +%s%N)
  ( echo "$BASHPID" > "$CT_CG/cgroup.procs"
    exec unshare --fork --pid --mount --mount-proc --uts --ipc --net --cgroup --propagation private \
         /bin/bash -c "$CT_INNER" inner "$CT_DIR" ) >"$CT_DIR/unshare.log" 2>&1 </dev/null &
  CT_UPID=$!
  CT_PID1=
  for _ in $(seq 1 200); do      # the forked child of unshare becomes the container's PID 1
    CT_PID1=$(pgrep -P "$CT_UPID" | head -1 || true); [ -n "$CT_PID1" ] && break; sleep 0.05; done
  [ -n "$CT_PID1" ] || { echo "container PID 1 did not appear: $(cat "$CT_DIR/unshare.log")" >&2; return 1; }
  for _ in $(seq 1 200); do      # until the inner script exec'd systemd and its bus socket exists
    [ "$(cat "/proc/$CT_PID1/comm" 2>/dev/null)" = systemd ] && [ -S "/proc/$CT_PID1/root/run/systemd/private" ] && break
    sleep 0.05; done
  state=$(CT_TIMEOUT=30 ct systemctl is-system-running --wait 2>&1) || true
  CT_BOOT_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
  case $state in
    running) return 0 ;;
    degraded) echo "container degraded: $(ct systemctl --failed --plain --no-legend --no-pager | tr '\n' ' ')" >&2; return 0 ;;
    *) echo "container state '$state': $(cat "$CT_DIR/unshare.log")" >&2; return 1 ;;
  esac
}

ct_teardown() {
  local _
  if [ -n "$CT_PID1" ] && kill -0 "$CT_PID1" 2>/dev/null; then
    ct systemctl poweroff --no-block >/dev/null 2>&1 || true
    for _ in $(seq 1 100); do kill -0 "$CT_UPID" 2>/dev/null || break; sleep 0.1; done
    # Killing the PID namespace's init kills everything inside it.
    if kill -0 "$CT_PID1" 2>/dev/null; then echo "container: poweroff timed out, SIGKILL to PID $CT_PID1" >&2; kill -KILL "$CT_PID1" 2>/dev/null || true; fi
  fi
  if [ -n "$CT_UPID" ]; then wait "$CT_UPID" 2>/dev/null || true; fi
  if [ -n "$CT_CG" ] && [ -d "$CT_CG" ]; then
    for _ in $(seq 1 20); do find "$CT_CG" -depth -type d -exec rmdir {} + 2>/dev/null || true; [ -d "$CT_CG" ] || break; sleep 0.1; done
    [ -d "$CT_CG" ] && echo "container: WARNING could not remove cgroup $CT_CG" >&2
  fi
  if [ -n "$CT_DIR" ]; then rm -rf "$CT_DIR"; fi
  CT_PID1=; CT_UPID=; CT_CG=; CT_DIR=; CT_SHARE=
}
