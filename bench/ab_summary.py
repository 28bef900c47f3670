#!/usr/bin/env python3
# ab_summary.py: the table of an A/B csv of bench/one-launch-session.sh
# (config,round,<domino bench csv>): per problem the better round of each
# configuration (base, new, new-off, new-all) for auto and cusparse,
# ratios, and geometric means.  Usage: python3 bench/ab_summary.py ab.csv
import csv,collections,math,sys
rows=list(csv.reader(open(sys.argv[1])))
bad=[r for r in rows if r[19]!='1']
print("not passed:",len(bad))
d=collections.defaultdict(list)
for r in rows:
    d[(r[2],r[0],r[8])].append((float(r[11]),float(r[13]),float(r[10])))
probs=[]
for r in rows:
    if r[2] not in probs: probs.append(r[2])
print("%-22s %8s %8s %8s %8s %8s | %6s %6s | %6s %6s | first base new" % ("problem","base","new","off","all","cusp","b/cus","n/cus","b/n","off/n"))
gm=collections.defaultdict(list)
for p in probs:
    def best(cfg,eng,i=0):
        v=d.get((p,cfg,eng))
        return min(x[i] for x in v) if v else float('nan')
    b,n,o,a=best('base','auto'),best('new','auto'),best('new-off','auto'),best('new-all','auto')
    cb,cn=best('base','cusparse'),best('new','cusparse')
    fb,fn=best('base','auto',1),best('new','auto',1)
    print("%-22s %8.4f %8.4f %8.4f %8.4f %8.4f | %6.2f %6.2f | %6.3f %6.3f | %.4f %.4f" % (p[:22],b,n,o,a,cn,cb/b,cn/n,b/n,o/n,fb,fn))
    gm['base vs cus'].append(math.log(cb/b)); gm['new vs cus'].append(math.log(cn/n)); gm['base/new'].append(math.log(b/n))
for k,v in gm.items(): print(k, round(math.exp(sum(v)/len(v)),3), len(v))
