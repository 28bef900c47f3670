#!/usr/bin/env bash
# install-deps.sh: install the Debian packages domino needs, only those missing.
# Called by `make run` / `make test`; does nothing when all are present.
set -euo pipefail
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
have_pkg zlib1g-dev || need+=(zlib1g-dev)
# Open MPI: mpirun and MPI-3 one-sided communication, the CPU backend of the
# distributed algorithms (tests run under mpirun -np 4 --oversubscribe)
have_pkg libopenmpi-dev || need+=(libopenmpi-dev)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
if [ "${DOMINO_WITH_PLOTS:-0}" = 1 ]; then command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox); fi
# NVSHMEM headers and libraries (the GPU image's version) so the multi-GPU
# targets compile and link wherever nvcc is; best effort: without them the
# build skips those targets and says so
if command -v nvcc >/dev/null 2>&1 && [ -z "${NVSHMEM_HOME:-}" ] && \
   ! python3 -c "import nvidia.nvshmem as m, os; assert os.path.exists(os.path.join(list(m.__path__)[0], 'include', 'nvshmem.h'))" >/dev/null 2>&1; then
  echo "install-deps: pip install nvidia-nvshmem-cu13==3.4.5 (multi-GPU targets)" >&2
  python3 -m pip install -q nvidia-nvshmem-cu13==3.4.5 >&2 || \
    echo "install-deps: NVSHMEM not installed; the multi-GPU targets will be skipped" >&2
fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: missing ${need[*]} and no apt-get: install them by hand" >&2; exit 1
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
echo "install-deps: installing ${need[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
