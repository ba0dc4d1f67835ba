import os,sys
out=os.environ['OUT']
lines=open(out+'/summary.txt').read().splitlines()
res={};cur=None
bins=[]
for l in lines:
    if l.startswith('== '):
        _,b,lab=l.split(); cur=b
        if b not in bins: bins.append(b)
    elif l.startswith(' ') and cur:
        f=l.split(); res.setdefault(f[0],{}).setdefault(cur,[]).append(f[2]+('' if f[3]=='true' else '!'))
print('graph'.ljust(24)+''.join(b.ljust(15) for b in bins))
for g,d in res.items():
    print(g.ljust(24)+''.join('/'.join(d.get(b,[])).ljust(15) for b in bins))
