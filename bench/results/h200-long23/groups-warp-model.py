# one warp of the patched thread-rows loop, warp-synchronous (every vote/shuffle
# taken by all 32 lanes), lower triangle; rows before the warp solved; checks
# termination and x against a direct solve
import random
PEND=None; B=4
def popc(v): return bin(v).count('1')
def fns(mask,g):  # (g)-th set bit, 0-based
    c=0
    for p in range(32):
        if mask>>p&1:
            if c==g: return p
            c+=1
    return -1
def walk(row,ind,val,st,x):  # pull_walk, st: dict k,s,d,wj,wa,end,stride
    k=st['k'];s=st['s'];d=st['d'];moved=False
    if st['wj']>=0:
        v=x[st['wj']]
        if v is PEND: return False,moved
        s+=st['wa']*v; st['wj']=-1; k+=st['stride']; moved=True
    stalled=False
    while k<st['end'] and not stalled:
        batch=[]
        for u in range(B):
            ku=k+u*st['stride']
            j=ind[ku] if ku<st['end'] else row; a=val[ku] if ku<st['end'] else 0.0
            batch.append((j,a,x[j] if j<row else 0.0))
        for j,a,v in batch:
            if stalled or k>=st['end']: continue
            if j<row:
                if v is PEND: stalled=True; st['wj']=j; st['wa']=a; continue
                s+=a*v
            elif j==row: d+=a
            k+=st['stride']; moved=True
    st['k']=k;st['s']=s;st['d']=d
    return (not stalled),moved
def run(seed):
    R=random.Random(seed); base=64; n=base+R.randint(1,32)
    ptr=[0];ind=[];val=[]
    for i in range(n):
        cols=sorted(R.sample(range(i),min(i,R.choice([2,3,70,200])))) if i else []
        R.shuffle(cols)
        for j in cols: ind.append(j); val.append(R.uniform(-1,1)/len(cols))
        ind.append(i); val.append(2.0); ptr.append(len(ind))
    b=[R.uniform(-1,1) for _ in range(n)]
    ref=[0.0]*n
    for i in range(n):
        s=0;d=0
        for k in range(ptr[i],ptr[i+1]):
            if ind[k]<i: s+=val[k]*ref[ind[k]]
            else: d+=val[k]
        ref[i]=(b[i]-s)/d
    x=ref[:base]+[PEND]*(n-base)
    long_row=R.choice([1,8,64])
    L=[]
    for lane in range(32):
        r=base+lane; act=r<n
        st,en=(ptr[r],ptr[r+1]) if act else (0,0)
        L.append(dict(row=r,act=act,start=st,end=en,long=act and en-st>long_row,done=not act,
                      short=dict(k=st,s=0.0,d=0.0,wj=-1,wa=0,end=en,stride=1)))
    longs=sum(1<<l for l in range(32) if L[l]['long']); m=popc(longs)
    S=32 if m<=1 else 16 if m<=2 else 8 if m<=4 else 4 if m<=8 else 2 if m<=16 else 1
    for l in range(32):
        g=l//S; o=fns(longs,g) if g<m else -1; L[l]['owner']=o
        L[l]['ct']= o<0
        if o>=0: L[l]['c']=dict(k=L[o]['start']+l%S,s=0.0,d=0.0,wj=-1,wa=0,end=L[o]['end'],stride=S)
    it=0
    while any(not q['done'] for q in L):
        it+=1
        assert it<100000,'no termination'
        order=list(range(32)); R.shuffle(order)   # lanes' memory effects in any order
        thr=[False]*32
        for l in order:
            q=L[l]
            if not q['done'] and not q['long']:
                ok,_=walk(q['row'],ind,val,q['short'],x)
                if ok: x[q['row']]=(b[q['row']]-q['short']['s'])/q['short']['d']; q['done']=True
            if m:
                thr[l]=q['ct'] or walk(L[q['owner']]['row'],ind,val,q['c'],x)[0]
        if m:
            ballot=sum(1<<l for l in range(32) if thr[l])
            newly=[False]*32
            for l in range(32):
                gm=((1<<S)-1)<<(l&~(S-1)); newly[l]=(not L[l]['ct']) and (ballot&gm)==gm
            if any(newly):
                for l in range(32):
                    q=L[l]
                    if q['long']:
                        first=popc(longs&((1<<l)-1))*S
                        if newly[first] and not q['done']:
                            rs=sum(L[f]['c']['s'] for f in range(first,first+S)); rd=sum(L[f]['c']['d'] for f in range(first,first+S))
                            x[q['row']]=(b[q['row']]-rs)/rd; q['done']=True
                for l in range(32): L[l]['ct']=L[l]['ct'] or newly[l]
    err=max(abs(x[i]-ref[i]) for i in range(n))
    assert err<1e-9,(seed,err)
    return m,it
ms={}
for s in range(3000):
    m,it=run(s); ms[m]=ms.get(m,0)+1
print('ok',sorted(ms.items()))
