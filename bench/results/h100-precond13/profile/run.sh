export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS=" " source bench/device-build.sh
k=D3N27_128
DOMINO_PRECOND_ONLY=$k timeout 150 ncu --set full --import-source yes -k regex:factor_kernel --launch-skip 9 --launch-count 1 -f -o /tmp/pf-$k build-gpu/domino bench --suite precond > /tmp/pf-$k.txt 2>&1
tail -2 /tmp/pf-$k.txt
ncu -i /tmp/pf-$k.ncu-rep --page source --csv --print-source sass > $OUT/$k-sass.csv 2>&1
ncu -i /tmp/pf-$k.ncu-rep --page details --csv > $OUT/$k-details.csv 2>&1
for cap in 256 64 1024 4096; do
 echo "cap $cap"; DOMINO_FACTOR_POLL=$cap DOMINO_PRECOND_ONLY=D3N27_128,D3N7_192,D3N27_192 build-gpu/domino bench --suite precond > $OUT/cap-$cap.txt 2>&1; head -8 $OUT/cap-$cap.txt | tail -6 | cut -c1-75
done
