// The report page's script (charts' controls and the hand viewer), included by page.rs after `const EV`, `const ACT` and `const WORDS`, the event names and the words for outcomes and actions from Rust; rule-set facts come in the viewer's data.
(function(){
var pick=document.getElementById('series-pick'),fullRange=document.getElementById('full-range');
function setRange(){document.querySelectorAll('svg.zoomable').forEach(function(svg){var full=fullRange.checked;svg.classList.toggle('zoomed',!full);var p=svg.querySelector('svg.plot');p.setAttribute('viewBox',full?p.dataset.full:p.dataset.zoom);});}
if(fullRange){fullRange.addEventListener('change',setRange);}
function showSeries(){var v=pick?pick.value:'all';document.querySelectorAll('figure.series').forEach(function(f){f.hidden=f.dataset.session!==v;});}
if(pick){pick.addEventListener('change',showSeries);}
document.querySelectorAll('.legend li').forEach(function(li){
 li.addEventListener('mouseenter',function(){document.querySelectorAll('figure.series svg').forEach(function(s){s.classList.add('dim');s.querySelectorAll('.line').forEach(function(l){l.classList.toggle('hot',l.dataset.bot===li.dataset.bot);});});});
 li.addEventListener('mouseleave',function(){document.querySelectorAll('figure.series svg').forEach(function(s){s.classList.remove('dim');});});
});
var data=JSON.parse(document.getElementById('hand-data').textContent);
var felt=document.getElementById('felt'),cap=document.getElementById('caption'),sel=document.getElementById('round-pick'),counter=document.getElementById('counter');
if(data.unavailable){felt.textContent='Hand viewer unavailable: '+data.unavailable;['prev','next','end'].forEach(function(id){document.getElementById(id).disabled=true;});sel.disabled=true;return;}
data.rounds.forEach(function(r,i){var o=document.createElement('option');o.value=i;o.textContent=r.label;sel.appendChild(o);});
var ri=0,step=0;
function rank(c){return c==='T'?'10':c;}
function outcome(o){return WORDS.outcomes[o]||o;}
function who(r,box){var names=data.tables[r.table]||[];var n=names[Math.floor(box/data.per)];return (n||'?')+(data.per>1?' · box '+box:'');}
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e;}
// A hand's total as the transcripts say it: hard 16, soft 18, bust 25, blackjack (face-down cards left out).
function total(cards,natural){var t=0,aces=0,n=0;cards.forEach(function(c){if(c.down)return;n++;var r=c.c;if(r==='A'){aces++;t+=1;}else t+=(r==='T'||r==='J'||r==='Q'||r==='K')?10:+r;});
 if(!n)return '';var soft=aces>0&&t+10<=21;var v=soft?t+10:t;if(natural&&n===2&&v===21)return 'blackjack';if(v>21)return 'bust '+v;return (soft?'soft ':'hard ')+v;}
function card(c){var d=el('div','card'+(c.down?' back':'')+(c.hidden?' hidden':'')+(c.fresh?' new':''));d.appendChild(el('span','r',rank(c.c)));d.appendChild(el('span','m',rank(c.c)));if(c.hidden)d.title='face down: only observers see it';return d;}
function describe(r,e){var b=e.box!==undefined?who(r,e.box):(e.seat!==undefined&&e.seat!==null?who(r,e.seat):'');
 switch(e.event){
 case EV.ROUND_START:return 'Round '+r.round+' begins.';
 case EV.SHUFFLE:return 'The shoe is shuffled ('+e.kind+').';
 case EV.BET:return b+' bets '+e.amount+'.';
 case EV.CARD:return b+' is dealt '+rank(e.card)+'.';
 case EV.DEALER_CARD:return e.face_down?'The dealer takes a hole card, face down.':'The dealer is dealt '+rank(e.card)+'.';
 case EV.HOLE_REVEALED:return 'The hole card is turned up: '+rank(e.card)+'.';
 case EV.HIDDEN_CARD:return (e.seat===null?'The banker':b)+' takes a card face down ('+rank(e.card)+').';
 case EV.REVEALED:return b+' shows the hidden '+rank(e.card)+'.';
 case EV.ASKED:return b+' is asked: '+e.decision+(e.legal&&e.legal.length?' ('+e.legal.join(', ')+')':'')+' → '+(e.answer===null?'no answer':e.answer)+'.';
 case EV.ACTED:return b+' '+(WORDS.acts[e.action]||e.action)+'.';
 case EV.SETTLED:return b+(data.per>1||e.hand>0?' hand '+e.hand:'')+': '+outcome(e.outcome)+', bet '+e.bet+', '+e.returned+' back ('+(e.returned-e.bet>=0?'+':'')+(e.returned-e.bet)+').';
 case EV.INSURANCE:return b+' insures for '+e.amount+'.';
 case EV.INSURANCE_SETTLED:return b+': insurance returns '+e.returned+'.';
 case EV.SIDE_BET:return b+' bets '+e.amount+' on '+e.side+' 13.';
 case EV.SIDE_BET_SETTLED:return b+': side bet returns '+e.returned+'.';
 case EV.BACK_BET:return who(r,e.player*data.per)+' bets '+e.amount+' behind '+b+'.';
 case EV.BACK_SETTLED:return 'Back bet on '+b+' returns '+e.returned+' of '+e.stake+'.';
 case EV.BANKER:return (e.seat===null?'The house':who(r,e.seat))+' holds the bank.';
 case EV.BANKER_DOUBLED:return 'The banker doubles every stake.';
 case EV.FAULT:return b+' FAULT in '+e.decision+' ('+e.kind+'): '+e.message;
 case EV.LOG:return b+' logs while deciding '+e.decision+': '+e.text;
 case EV.DISQUALIFIED:return b+' is disqualified.';
 case EV.ROUND_VOID:return 'The deck ran out: the round is void, stakes returned.';
 case EV.ROUND_END:return 'Round '+r.round+' ends.';
 }return e.event;}
function render(){
 var r=data.rounds[ri];if(!r){felt.textContent='No rounds recorded.';return;}
 var dealer=[],boxes={},order=[],banker=null,doubled=false;
 function box(i){if(!boxes[i]){boxes[i]={hands:[],bet:0,notes:[]};order.push(i);}return boxes[i];}
 // Every box of the table is on the felt from the start, in seat order.
 var seated=(data.tables[r.table]||[]).length*data.per;for(var sb=0;sb<seated;sb++)box(sb);
 function hand(bx,h){while(bx.hands.length<=h)bx.hands.push({cards:[],res:null});return bx.hands[h];}
 for(var i=0;i<step;i++){var e=r.events[i],fresh=i===step-1;
  switch(e.event){
  case EV.BET:box(e.box).bet+=e.amount;break;
  case EV.CARD:hand(box(e.box),e.hand).cards.push({c:e.card,fresh:fresh});break;
  case EV.DEALER_CARD:dealer.push({c:e.card,down:e.face_down,fresh:fresh});break;
  case EV.HOLE_REVEALED:var d=dealer.filter(function(c){return c.down;})[0];if(d){d.down=false;d.fresh=fresh;}else dealer.push({c:e.card,fresh:fresh});break;
  case EV.HIDDEN_CARD:if(e.seat===null)dealer.push({c:e.card,down:true,fresh:fresh});else hand(box(e.seat),0).cards.push({c:e.card,hidden:true,fresh:fresh});break;
  case EV.REVEALED:var hc=hand(box(e.seat),0).cards.filter(function(c){return c.hidden;})[0];if(hc){hc.hidden=false;hc.fresh=fresh;}break;
  case EV.ACTED:var bx=box(e.box);if(e.action===ACT.SPLIT){var hh=hand(bx,e.hand);var moved=hh.cards.pop();bx.hands.splice(e.hand+1,0,{cards:[moved],res:null});}else if(e.action===ACT.DOUBLE){hand(bx,e.hand).doubled=true;}break;
  case EV.SETTLED:hand(box(e.box),e.hand).res={o:e.outcome,net:e.returned-e.bet};break;
  case EV.INSURANCE:box(e.box).notes.push('insured '+e.amount);break;
  case EV.INSURANCE_SETTLED:box(e.box).notes.push('insurance returns '+e.returned);break;
  case EV.SIDE_BET:box(e.box).notes.push(e.side+' 13: '+e.amount);break;
  case EV.SIDE_BET_SETTLED:box(e.box).notes.push('side bet returns '+e.returned);break;
  case EV.BACK_BET:box(e.box).notes.push(who(r,e.player*data.per)+' behind: '+e.amount);break;
  case EV.BACK_SETTLED:box(e.box).notes.push(who(r,e.player*data.per)+' behind gets back '+e.returned+' of '+e.stake);break;
  case EV.FAULT:box(e.box).notes.push('fault: '+e.kind);break;
  case EV.BANKER:banker=e.seat;break;
  case EV.BANKER_DOUBLED:doubled=true;break;
  }}
 felt.textContent='';
 var dl=el('div','dealer');var dn=data.banker_game?(banker===null?'Banker: the house':'Banker: '+who(r,banker))+(doubled?' (doubled)':''):'Dealer';dl.appendChild(el('span','who',dn));
 var dc=el('div','cards');dealer.forEach(function(c){dc.appendChild(card(c));});dl.appendChild(dc);var dt=total(dealer,true);if(dt)dl.appendChild(el('span','total',dt.replace(/^(hard|soft) /,'')));felt.appendChild(dl);
 var bs=el('div','boxes');order.sort(function(a,b){return a-b;}).forEach(function(i){var bx=boxes[i];if(data.banker_game&&banker===+i)return;var d=el('div','box');d.appendChild(el('div','who',who(r,+i)+(bx.bet?' · bet '+bx.bet:'')));
  bx.hands.forEach(function(h){var hd=el('div','hand');var cs=el('div','cards');h.cards.forEach(function(c){cs.appendChild(card(c));});hd.appendChild(cs);var ht=total(h.cards,bx.hands.length===1);if(ht)hd.appendChild(el('div','total',ht));
   if(h.doubled||h.res){var inf=el('div','info',h.doubled?'doubled':'');if(h.res){inf.appendChild(el('span','res '+(h.res.net>0?'win':h.res.net<0?'lose':''),outcome(h.res.o)+' '+(h.res.net>=0?'+':'')+h.res.net));}hd.appendChild(inf);}
   d.appendChild(hd);});
  bx.notes.forEach(function(n){d.appendChild(el('div','info',n));});bs.appendChild(d);});
 felt.appendChild(bs);
 cap.textContent=step===0?r.label+' — press step ▶':describe(r,r.events[step-1]);
 counter.textContent='event '+step+' of '+r.events.length;
}
function go(n){var r=data.rounds[ri];step=Math.max(0,Math.min(r.events.length,n));render();}
document.getElementById('next').onclick=function(){go(step+1);};
document.getElementById('prev').onclick=function(){go(step-1);};
document.getElementById('end').onclick=function(){go(1e9);};
sel.onchange=function(){ri=+sel.value;step=0;render();};
document.addEventListener('keydown',function(e){if(e.target.tagName==='SELECT')return;if(e.key==='ArrowRight')go(step+1);if(e.key==='ArrowLeft')go(step-1);});
render();
})();
