#!/usr/bin/perl
# gen_tables.pl - turn the NetBurst event model (pmu.txt, events.txt,
# metrics.txt, presets.txt) into C tables.
#   gen_tables.pl DIR OUTDIR   writes OUTDIR/nb_tables.c, OUTDIR/nb_tables_idx.h
# Fails (non-zero, message naming file:line) on any malformed or inconsistent
# input, so a typo in the data never reaches the build silently.  The format
# of each file is described in its header comment and in README.md.
use strict;
use warnings;
no warnings 'portable';    # 64-bit MSR masks

my ($dir, $out) = @ARGV;
die "usage: gen_tables.pl DATADIR OUTDIR\n" unless defined $out;

my (@counters, @escrs, %escr_idx, @msrs, @events, %ev_idx, @metrics, %met_idx, @presets);
my %grp = (BPU => 0, MS => 1, FLAME => 2, IQ => 3);
my %feat = (l3 => 1);                                  # NB_FEAT_*
my %role = ('' => 'NB_ROLE_NONE', 'fe-upstream' => 'NB_ROLE_FE_UPSTREAM',
	'exec-upstream' => 'NB_ROLE_EXEC_UPSTREAM', 'fe-count' => 'NB_ROLE_FE_COUNT',
	'exec-count' => 'NB_ROLE_EXEC_COUNT', 'replay-count' => 'NB_ROLE_REPLAY_COUNT');
my %mtype = (frontend => 'NB_TAG_FRONTEND', execution => 'NB_TAG_EXECUTION', replay => 'NB_TAG_REPLAY');
my %dtype = (NOT_DERIVED => 'NB_NOT_DERIVED', DERIVED_ADD => 'NB_DERIVED_ADD',
	DERIVED_SUB => 'NB_DERIVED_SUB', DERIVED_POSTFIX => 'NB_DERIVED_POSTFIX');
use constant MAX_HELPERS => 2;
use constant MAX_TERMS => 4;

sub fail { my ($f, $l, $m) = @_; die "$f:$l: $m\n"; }
sub cstr {
	my $s = shift;
	return 'NULL' unless defined $s;
	$s =~ s/\\/\\\\/g; $s =~ s/"/\\"/g; return "\"$s\"";
}
sub models {
	my ($f, $l, $s) = @_;
	return 0x7f if $s eq 'all';
	my $m = 0;
	for my $n (split /,/, $s) {
		fail($f, $l, "bad model '$n' (0-6 or all)") unless $n =~ /^[0-6]$/;
		$m |= 1 << $n;
	}
	return $m;
}
sub features {
	my ($f, $l, $s) = @_;
	my $m = 0;
	for my $n (split /,/, $s) {
		fail($f, $l, "unknown feature '$n' (known: " . join(',', sort keys %feat) . ")") unless exists $feat{$n};
		$m |= $feat{$n};
	}
	return $m;
}
sub cname { my $s = uc shift; $s =~ s/[^A-Z0-9]/_/g; return $s; }

# ---------------------------------------------------------------- pmu.txt
my $f = "$dir/pmu.txt";
open my $fh, '<', $f or die "$f: $!\n";
while (<$fh>) {
	chomp; s/\s+#.*$//; next if /^\s*(#|$)/;
	my @w = split ' ';
	if ($w[0] eq 'counter') {
		fail($f, $., 'counter needs 7 fields') unless @w == 8;
		my ($n, $name, $msr, $cname, $cmsr, $g, $alt) = @w[1..7];
		fail($f, $., "counter $n out of order") unless $n == @counters;
		fail($f, $., "unknown group $g") unless exists $grp{$g};
		fail($f, $., "bad cascade alternate $alt") unless $alt eq '-' || ($alt =~ /^\d+$/ && $alt < 18);
		push @counters, [$name, $cname, hex $msr, hex $cmsr, $n, $grp{$g}, $alt eq '-' ? -1 : $alt];
	} elsif ($w[0] eq 'escr') {
		fail($f, $., 'escr needs 6 fields') unless @w == 7;
		my ($name, $msr, $g, $sel, $ctrs, $mod) = @w[1..6];
		fail($f, $., "unknown group $g") unless exists $grp{$g};
		fail($f, $., "duplicate escr $name") if exists $escr_idx{$name};
		fail($f, $., "bad ESCR select '$sel'") unless $sel =~ /^[0-7]$/;
		my $cm = 0;
		for my $c (split /,/, $ctrs) {
			fail($f, $., "bad counter $c") unless $c =~ /^\d+$/ && $c < 18;
			fail($f, $., "counter $c not in group $g") unless $counters[$c][5] == $grp{$g};
			$cm |= 1 << $c;
		}
		$escr_idx{$name} = @escrs;
		push @escrs, [$name, hex $msr, $grp{$g}, $sel, $cm, models($f, $., $mod)];
	} elsif ($w[0] eq 'msr') {
		/^msr\s+(\S+)\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+"(.*)"\s*$/i
			or fail($f, $., 'msr: NAME ADDR MASK "DESC"');
		push @msrs, [$1, $4, hex $2, $3];
	} else {
		fail($f, $., "unknown record '$w[0]'");
	}
}
close $fh;
die "$f: expected 18 counters, found " . @counters . "\n" unless @counters == 18;
die "$f: expected 45 ESCRs, found " . @escrs . "\n" unless @escrs == 45;

# ------------------------------------------------------------- events.txt
# Pass 1 parses; references to metrics (vmask ... metric NAME) are resolved
# after metrics.txt is read.
$f = "$dir/events.txt";
open $fh, '<', $f or die "$f: $!\n";
my $ev;
my %evname;       # lower-case name or alias -> event
while (<$fh>) {
	chomp;
	next if /^\s*(#|$)/;
	s/\s+$//;
	if (/^event\s+(\S+)$/) {
		my $n = $1;
		fail($f, $., "duplicate event name $n") if $evname{lc $n};
		fail($f, $., "bad event name '$n'") unless $n =~ /^[A-Za-z0-9_]+$/;
		$ev = { name => $n, masks => [], vmasks => [], line => $., features => 0,
			role => '', pebs => 0, file => $f };
		$evname{lc $n} = $ev;
		push @events, $ev;
		next;
	}
	fail($f, $., 'field outside an event block') unless $ev && /^\s+(\S+)\s*(.*)$/;
	my ($k, $v) = ($1, $2);
	fail($f, $., "field '$k' given twice") if $k !~ /^(mask|vmask)$/ && exists $ev->{"seen_$k"};
	$ev->{"seen_$k"} = 1;
	if ($k eq 'desc' || $k eq 'note') {
		$v =~ /^"([^"]*)"$/ or fail($f, $., "$k \"TEXT\"");
		$ev->{$k} = $1;
	} elsif ($k eq 'select') {
		fail($f, $., 'select HEX (0..0x3f)') unless $v =~ /^0x[0-9a-f]+$/i && hex($v) < 64;
		$ev->{select} = hex $v;
	} elsif ($k eq 'escrsel') {
		fail($f, $., 'escrsel 0..7') unless $v =~ /^[0-7]$/;
		$ev->{escrsel} = $v;
	} elsif ($k eq 'escrs') {
		my @e = split ' ', $v;
		fail($f, $., 'escrs: 1 or 2 ESCRs') unless @e >= 1 && @e <= 2;
		for (@e) { fail($f, $., "unknown escr $_") unless exists $escr_idx{$_}; }
		fail($f, $., 'escrs: same ESCR twice') if @e == 2 && $e[0] eq $e[1];
		$ev->{escrs} = [map { $escr_idx{$_} } @e];
	} elsif ($k eq 'models') {
		$ev->{models} = models($f, $., $v);
	} elsif ($k eq 'features') {
		$ev->{features} = features($f, $., $v);
	} elsif ($k eq 'class') {
		fail($f, $., 'class retirement|nonretirement') unless $v =~ /^(non)?retirement$/;
		$ev->{retire} = $v eq 'retirement' ? 1 : 0;
	} elsif ($k eq 'role') {
		fail($f, $., "role: one of " . join(' ', grep { $_ ne '' } sort keys %role)) unless $v ne '' && exists $role{$v};
		$ev->{role} = $v;
	} elsif ($k eq 'pebs') {
		fail($f, $., 'pebs yes|no') unless $v =~ /^(yes|no)$/;
		$ev->{pebs} = $v eq 'yes' ? 1 : 0;
	} elsif ($k eq 'kernel') {
		fail($f, $., 'kernel N (0..63) | none') unless $v eq 'none' || ($v =~ /^\d+$/ && $v < 64);
		$ev->{kernel} = $v eq 'none' ? 255 : $v;
	} elsif ($k eq 'alias') {
		fail($f, $., 'alias NAME') unless $v =~ /^[A-Za-z0-9_]+$/;
		fail($f, $., "alias $v clashes with an event name or alias") if $evname{lc $v};
		$evname{lc $v} = $ev;
		$ev->{alias} = $v;
	} elsif ($k eq 'default') {
		$ev->{default} = [split ' ', $v];
		fail($f, $., 'default: at least one mask') unless @{$ev->{default}};
	} elsif ($k eq 'mask') {
		$v =~ /^(\S+)\s+(\d+)\s+(TS|TI)\s+"([^"]*)"\s*(.*)$/ or fail($f, $., 'mask NAME BIT TS|TI "DESC" [models=..] [features=..] [alias=..]');
		my ($n, $bit, $ts, $d, $opt) = ($1, $2, $3, $4, $5);
		fail($f, $., "bad mask name '$n'") unless $n =~ /^[A-Za-z0-9_]+$/;
		fail($f, $., "mask bit $bit > 15") if $bit > 15;
		my $m = { name => $n, bit => $bit, ts => $ts, desc => $d, line => $. };
		for my $o (split ' ', $opt) {
			my ($ok, $ov) = $o =~ /^(\w+)=(\S+)$/ or fail($f, $., "bad mask option '$o'");
			if ($ok eq 'models') { $m->{models} = models($f, $., $ov); }
			elsif ($ok eq 'features') { $m->{features} = features($f, $., $ov); }
			elsif ($ok eq 'alias') {
				fail($f, $., "bad alias '$ov'") unless $ov =~ /^[A-Za-z0-9_]+$/;
				$m->{alias} = $ov;
			} else { fail($f, $., "unknown mask option '$ok'"); }
		}
		for my $o (@{$ev->{masks}}) {
			for my $a ($n, $m->{alias} // ()) {
				fail($f, $., "duplicate mask name $a") if lc $o->{name} eq lc $a || lc($o->{alias} // '') eq lc $a;
			}
			fail($f, $., "mask bit $bit used twice") if $o->{bit} == $bit;
		}
		push @{$ev->{masks}}, $m;
	} elsif ($k eq 'vmask') {
		$v =~ /^(\S+)\s+(tag|metric)\s+(\S+)\s+"([^"]*)"$/ or fail($f, $., 'vmask NAME tag N|metric METRIC "DESC"');
		my ($n, $kind, $arg, $d) = ($1, $2, $3, $4);
		fail($f, $., 'vmask tag: 0..3') if $kind eq 'tag' && $arg !~ /^[0-3]$/;
		for my $o (@{$ev->{masks}}, @{$ev->{vmasks}}) {
			fail($f, $., "vmask $n clashes with mask $o->{name}") if lc $o->{name} eq lc $n || lc($o->{alias} // '') eq lc $n;
		}
		push @{$ev->{vmasks}}, { name => $n, kind => $kind, arg => $arg, desc => $d, line => $. };
	} elsif ($k eq 'src') {
		fail($f, $., 'src: empty') if $v eq '';
		$ev->{src} = $v;
	} else {
		fail($f, $., "unknown field '$k'");
	}
}
close $fh;

my %reserved_ev = map { $_ => 1 } qw(RETIREMENT PEBS);   # NB_EV_* flag macros
my %kidx;
for my $e (@events) {
	for my $k (qw(desc select escrsel escrs models retire kernel src)) {
		my $kk = $k eq 'retire' ? 'class' : $k;
		fail($f, $e->{line}, "event $e->{name} lacks '$kk'") unless defined $e->{$k};
	}
	fail($f, $e->{line}, "event $e->{name} has no mask") unless @{$e->{masks}};
	fail($f, $e->{line}, "event $e->{name}: its macro NB_EV_" . cname($e->{name}) . " is reserved") if $reserved_ev{cname($e->{name})};
	for my $x (@{$e->{escrs}}) {
		fail($f, $e->{line}, "event $e->{name}: escrsel $e->{escrsel} != $escrs[$x][0]'s $escrs[$x][3]")
			unless $escrs[$x][3] == $e->{escrsel};
		fail($f, $e->{line}, "event $e->{name}: models 0x" . sprintf('%x', $e->{models}) .
			" not all served by $escrs[$x][0]") if $e->{models} & ~$escrs[$x][5];
	}
	if ($e->{kernel} != 255) {
		fail($f, $e->{line}, "event $e->{name}: kernel index $e->{kernel} also used by $kidx{$e->{kernel}}") if $kidx{$e->{kernel}};
		$kidx{$e->{kernel}} = $e->{name};
	}
	fail($f, $e->{line}, "event $e->{name}: pebs yes needs class retirement") if $e->{pebs} && !$e->{retire};
	my ($valid, $dfl) = (0, 0);
	for my $m (@{$e->{masks}}) {
		$m->{models} //= $e->{models};
		$m->{features} //= 0;
		$m->{features} |= $e->{features};
		fail($f, $m->{line}, "mask $m->{name}: models outside the event's") if $m->{models} & ~$e->{models};
		$valid |= 1 << $m->{bit};
	}
	for my $d (@{$e->{default} // []}) {
		my ($m) = grep { lc $_->{name} eq lc $d } @{$e->{masks}};
		fail($f, $e->{line}, "event $e->{name}: unknown default mask $d") unless $m;
		fail($f, $e->{line}, "event $e->{name}: default mask $d needs a feature") if $m->{features} & ~$e->{features};
		$dfl |= 1 << $m->{bit};
	}
	for my $vm (@{$e->{vmasks}}) {
		fail($f, $vm->{line}, "vmask tag on an event that is not an execution-tagging upstream event")
			if $vm->{kind} eq 'tag' && $e->{role} ne 'exec-upstream';
		fail($f, $vm->{line}, "vmask metric on an event that does not count replay tags")
			if $vm->{kind} eq 'metric' && $e->{role} ne 'replay-count';
	}
	@$e{qw(valid dfl)} = ($valid, $dfl);
	$ev_idx{$e->{name}} = $e;
}
for my $i (0 .. $#events) { $events[$i]{idx} = $i; }

# Resolve "EVENT:MASK:MASK" against the event table (canonical names, or
# accepted aliases).  Returns (event, maskbits, features, models).
sub resolve_event_term {
	my ($f, $l, $t, $what) = @_;
	my ($en, @mn) = split /:/, $t, -1;
	my $e = $evname{lc($en // '')} or fail($f, $l, "$what: unknown event '" . ($en // '') . "'");
	fail($f, $l, "$what: write the event as '$e->{name}', not '$en'") unless $en eq $e->{name} || $en eq ($e->{alias} // '');
	my ($bits, $fe, $mo) = (0, $e->{features}, $e->{models});
	unless (@mn) {
		fail($f, $l, "$what: event $e->{name} has no default mask: name the masks") unless $e->{dfl};
		return ($e, $e->{dfl}, $fe, $mo);
	}
	my %seen;
	for my $n (@mn) {
		my ($m) = grep { $_->{name} eq $n || ($_->{alias} // '') eq $n } @{$e->{masks}};
		fail($f, $l, "$what: event $e->{name} has no mask '$n'") unless $m;
		fail($f, $l, "$what: mask $n named twice") if $seen{$m->{bit}}++;
		$bits |= 1 << $m->{bit};
		$fe |= $m->{features};
		$mo &= $m->{models};
	}
	return ($e, $bits, $fe, $mo);
}

# ------------------------------------------------------------ metrics.txt
$f = "$dir/metrics.txt";
open $fh, '<', $f or die "$f: $!\n";
my $mt;
while (<$fh>) {
	chomp;
	next if /^\s*(#|$)/;
	s/\s+$//;
	if (/^metric\s+(\S+)$/) {
		my $n = $1;
		fail($f, $., "bad metric name '$n'") unless $n =~ /^[A-Za-z0-9_]+$/;
		fail($f, $., "duplicate metric $n") if $met_idx{lc $n};
		fail($f, $., "metric $n has the name of an event") if $evname{lc $n};
		$mt = { name => $n, line => $., helpers => [], features => 0, models => 0x7f,
			kernel => 0, tag => 255, pebs_enable => 0, matrix_vert => 0 };
		$met_idx{lc $n} = $mt;
		push @metrics, $mt;
		next;
	}
	fail($f, $., 'field outside a metric block') unless $mt && /^\s+(\S+)\s*(.*)$/;
	my ($k, $v) = ($1, $2);
	fail($f, $., "field '$k' given twice") if $k ne 'helper' && exists $mt->{"seen_$k"};
	$mt->{"seen_$k"} = 1;
	if ($k eq 'desc' || $k eq 'note') {
		$v =~ /^"([^"]*)"$/ or fail($f, $., "$k \"TEXT\"");
		$mt->{$k} = $1;
	} elsif ($k eq 'type') {
		fail($f, $., 'type replay|frontend|execution') unless exists $mtype{$v};
		$mt->{type} = $v;
	} elsif ($k eq 'count') {
		fail($f, $., 'count EVENT:MASK[:MASK]') unless $v =~ /^\S+:\S+$/;
		my ($e, $bits) = resolve_event_term($f, $., $v, 'count');
		@$mt{qw(count count_masks count_line)} = ($e, $bits, $.);
	} elsif ($k eq 'helper') {
		my ($t, @opt) = split ' ', $v;
		fail($f, $., 'helper EVENT:MASK[:MASK] [escr=NAME] [tag]') unless defined $t && $t =~ /^\S+:\S+$/;
		fail($f, $., 'at most ' . MAX_HELPERS . ' helpers') if @{$mt->{helpers}} >= MAX_HELPERS;
		my ($e, $bits, $fe, $mo) = resolve_event_term($f, $., $t, 'helper');
		my $h = { event => $e, masks => $bits, escr => 255, tag => 0, line => $. };
		for my $o (@opt) {
			if ($o eq 'tag') { $h->{tag} = 1; }
			elsif ($o =~ /^escr=(\S+)$/) {
				fail($f, $., "unknown escr $1") unless exists $escr_idx{$1};
				fail($f, $., "helper escr $1 cannot count $e->{name}") unless grep { $_ == $escr_idx{$1} } @{$e->{escrs}};
				$h->{escr} = $escr_idx{$1};
			} else { fail($f, $., "unknown helper option '$o'"); }
		}
		$mt->{features} |= $fe;
		$mt->{models} &= $mo;
		push @{$mt->{helpers}}, $h;
	} elsif ($k eq 'tag') {
		fail($f, $., 'tag 0..3') unless $v =~ /^[0-3]$/;
		@$mt{qw(tag tag_line)} = ($v, $.);
	} elsif ($k eq 'pebs_enable' || $k eq 'matrix_vert') {
		fail($f, $., "$k HEX") unless $v =~ /^0x[0-9a-f]{1,8}$/i;
		$mt->{$k} = hex $v;
	} elsif ($k eq 'kernel') {
		fail($f, $., 'kernel N (1..63) | none') unless $v eq 'none' || ($v =~ /^\d+$/ && $v >= 1 && $v < 64);
		$mt->{kernel} = $v eq 'none' ? 0 : $v;
	} elsif ($k eq 'models') {
		$mt->{models} &= models($f, $., $v);
	} elsif ($k eq 'features') {
		$mt->{features} |= features($f, $., $v);
	} elsif ($k eq 'src') {
		fail($f, $., 'src: empty') if $v eq '';
		$mt->{src} = $v;
	} else {
		fail($f, $., "unknown field '$k'");
	}
}
close $fh;

my %msr_writable = map { $_->[0] => hex $_->[3] } @msrs;
my %mkidx;
for my $m (@metrics) {
	my $l = $m->{line};
	for my $k (qw(desc type count src)) {
		fail($f, $l, "metric $m->{name} lacks '$k'") unless defined $m->{$k};
	}
	my $t = $m->{type};
	my $c = $m->{count};
	my $want = { replay => 'replay-count', frontend => 'fe-count', execution => 'exec-count' }->{$t};
	fail($f, $l, "metric $m->{name}: $t metrics are counted by a $want event, not $c->{name}") unless $c->{role} eq $want;
	$m->{models} &= $c->{models};
	$m->{features} |= $c->{features};
	if ($t eq 'replay') {
		fail($f, $l, "metric $m->{name}: replay metrics need pebs_enable and matrix_vert")
			unless $m->{seen_pebs_enable} && $m->{seen_matrix_vert};
		fail($f, $l, "metric $m->{name}: pebs_enable must set bit 24 (uop tag)") unless $m->{pebs_enable} & (1 << 24);
		fail($f, $l, "metric $m->{name}: pebs_enable bit 25 (PEBS) must stay clear for counting") if $m->{pebs_enable} & (1 << 25);
		fail($f, $l, "metric $m->{name}: pebs_enable sets bits IA32_PEBS_ENABLE does not have")
			if $m->{pebs_enable} & ~$msr_writable{IA32_PEBS_ENABLE};
		fail($f, $l, "metric $m->{name}: matrix_vert sets bits MSR_PEBS_MATRIX_VERT does not have")
			if $m->{matrix_vert} & ~$msr_writable{MSR_PEBS_MATRIX_VERT};
		fail($f, $l, "metric $m->{name}: tag is for execution metrics") if $m->{tag} != 255;
		for my $h (@{$m->{helpers}}) {
			fail($f, $h->{line}, "replay helpers are not tagged") if $h->{tag};
		}
		if ($m->{kernel}) {
			fail($f, $l, "metric $m->{name}: kernel index $m->{kernel} also used by $mkidx{$m->{kernel}}") if $mkidx{$m->{kernel}};
			$mkidx{$m->{kernel}} = $m->{name};
		}
	} else {
		fail($f, $l, "metric $m->{name}: pebs_enable/matrix_vert/kernel are for replay metrics")
			if $m->{seen_pebs_enable} || $m->{seen_matrix_vert} || $m->{kernel};
		my $up = $t eq 'frontend' ? 'fe-upstream' : 'exec-upstream';
		my @up = grep { $_->{event}{role} eq $up } @{$m->{helpers}};
		fail($f, $l, "metric $m->{name}: needs one $up helper") unless @up == 1;
		if ($t eq 'execution') {
			fail($f, $l, "metric $m->{name}: execution metrics need 'tag N'") if $m->{tag} == 255;
			fail($f, $up[0]{line}, "the execution upstream helper must carry 'tag'") unless $up[0]{tag};
			my ($nb) = grep { $_->{name} eq "NBOGUS$m->{tag}" } @{$c->{masks}};
			fail($f, $m->{tag_line}, "metric $m->{name}: tag $m->{tag} is counted by NBOGUS$m->{tag} only, not by the count masks")
				unless $nb && $m->{count_masks} == (1 << $nb->{bit});
		} else {
			fail($f, $l, "metric $m->{name}: tag is for execution metrics") if $m->{tag} != 255;
			fail($f, $up[0]{line}, "front-end tagging has no tag value") if $up[0]{tag};
		}
	}
}
for my $i (0 .. $#metrics) { $metrics[$i]{idx} = $i; }

# vmask -> metric references (events.txt, resolved now)
for my $e (@events) {
	for my $vm (grep { $_->{kind} eq 'metric' } @{$e->{vmasks}}) {
		my $m = $met_idx{lc $vm->{arg}};
		fail("$dir/events.txt", $vm->{line}, "vmask $vm->{name}: unknown metric $vm->{arg}") unless $m && $m->{name} eq $vm->{arg};
		fail("$dir/events.txt", $vm->{line}, "vmask $vm->{name}: metric $vm->{arg} is not counted by $e->{name}") unless $m->{count} == $e;
		$vm->{argidx} = $m->{idx};
	}
}

# ------------------------------------------------------------ presets.txt
# The component counts each preset term on its own and combines them as a
# linear form (so that alternatives of different shapes can stand behind one
# PAPI preset): a DERIVED_POSTFIX formula must be sum(c_k * N_k) with small
# integer c_k.  Evaluate it over vectors [const, c_0, .., c_n-1].
sub linear_coef {
	my ($f, $line, $formula, $n) = @_;
	my @st;
	my $isconst = sub { my $v = shift; !grep { $v->[$_] } 1 .. $n };
	for my $t (split /\|/, $formula) {
		if ($t =~ /^N(\d+)$/) {
			my @v = (0) x ($n + 1);
			$v[$1 + 1] = 1;
			push @st, \@v;
		} elsif ($t =~ /^\d+$/) {
			push @st, [ $t, (0) x $n ];
		} else {
			fail($f, $line, "formula: '$t' lacks operands") if @st < 2;
			my $b = pop @st;
			my $a = pop @st;
			my @r;
			if ($t eq '+' || $t eq '-') {
				@r = map { $t eq '+' ? $a->[$_] + $b->[$_] : $a->[$_] - $b->[$_] } 0 .. $n;
			} elsif ($t eq '*') {
				fail($f, $line, 'formula: not linear (product of two counts)')
					unless $isconst->($a) || $isconst->($b);
				my ($k, $v) = $isconst->($a) ? ($a->[0], $b) : ($b->[0], $a);
				@r = map { $k * $v->[$_] } 0 .. $n;
			} else {
				fail($f, $line, 'formula: division by a count') unless $isconst->($b) && $b->[0];
				@r = map { $a->[$_] / $b->[0] } 0 .. $n;
			}
			push @st, \@r;
		}
	}
	fail($f, $line, 'formula: leaves ' . scalar(@st) . ' values') unless @st == 1;
	my $v = $st[0];
	fail($f, $line, 'formula: constant term') if $v->[0];
	for my $k (1 .. $n) {
		fail($f, $line, "formula: coefficient of N" . ($k - 1) . " is not a small integer")
			unless $v->[$k] == int($v->[$k]) && abs($v->[$k]) <= 127;
	}
	return [ @$v[1 .. $n] ];
}

$f = "$dir/presets.txt";
open $fh, '<', $f or die "$f: $!\n";
my ($ps, %psname);
while (<$fh>) {
	chomp;
	next if /^\s*(#|$)/;
	s/\s+$//;
	if (/^preset\s+(\S+)$/) {
		my $n = $1;
		fail($f, $., "bad preset name '$n' (PAPI_*)") unless $n =~ /^PAPI_[A-Z0-9_]+$/;
		fail($f, $., "duplicate preset $n") if $psname{$n}++;
		$ps = { name => $n, line => $., alts => [] };
		push @presets, $ps;
		next;
	}
	fail($f, $., 'field outside a preset block') unless $ps && /^\s+(\S+)\s*(.*)$/;
	my ($k, $v) = ($1, $2);
	if ($k eq 'note') {
		fail($f, $., 'note given twice') if defined $ps->{note};
		$v =~ /^"([^"]*)"$/ or fail($f, $., 'note "TEXT"');
		$ps->{note} = $1;
	} elsif ($k eq 'src') {
		fail($f, $., 'src given twice') if defined $ps->{src};
		fail($f, $., 'src: empty') if $v eq '';
		$ps->{src} = $v;
	} elsif ($k eq 'alt') {
		my $a = { line => $., terms => [], features => 0, models => 0x7f };
		$a->{note} = $1 if $v =~ s/\s*note="([^"]*)"//;
		$a->{formula} = $1 if $v =~ s/\s*formula="([^"]*)"//;
		fail($f, $., 'stray quote in alt (note="..." and formula="..." only)') if $v =~ /"/;
		my ($type, @rest) = split ' ', $v;
		fail($f, $., 'alt TYPE TERM... (TYPE: ' . join(' ', sort keys %dtype) . ')') unless defined $type && exists $dtype{$type};
		$a->{type} = $type;
		for my $r (grep { /^features=/ } @rest) {
			$a->{features} |= features($f, $., substr($r, 9));
		}
		for my $r (grep { !/^features=/ } @rest) {
			fail($f, $., "unknown alt option '$r'") if $r =~ /=/;
			my $term;
			if ($r !~ /:/ && (my $m = $met_idx{lc $r})) {
				fail($f, $., "write the metric as '$m->{name}', not '$r'") unless $m->{name} eq $r;
				$term = { name => $r, kind => 'NB_REF_METRIC', index => $m->{idx}, masks => 0 };
				$term->{fe} = $m->{features}; $term->{mo} = $m->{models};
			} else {
				my ($e, $bits, $fe, $mo) = resolve_event_term($f, $., $r, "alt term '$r'");
				fail($f, $., "alt term '$r': use the canonical spelling $e->{name}") if $r !~ /^\Q$e->{name}\E(:|$)/;
				$term = { name => $r, kind => 'NB_REF_EVENT', index => $e->{idx}, masks => $bits, fe => $fe, mo => $mo };
			}
			fail($f, $., "alt term '$r' needs feature(s) the alt does not declare (add features=...)")
				if $term->{fe} & ~$a->{features};
			$a->{models} &= $term->{mo};
			push @{$a->{terms}}, $term;
		}
		my $n = @{$a->{terms}};
		fail($f, $., 'alt: no terms') unless $n;
		fail($f, $., 'alt: at most ' . MAX_TERMS . ' terms') if $n > MAX_TERMS;
		fail($f, $., 'NOT_DERIVED takes exactly one term') if $type eq 'NOT_DERIVED' && $n != 1;
		fail($f, $., "$type takes at least two terms") if $type =~ /^DERIVED_(ADD|SUB)$/ && $n < 2;
		if ($type eq 'DERIVED_POSTFIX') {
			fail($f, $., 'DERIVED_POSTFIX needs formula="..."') unless defined $a->{formula};
			for my $x ($a->{formula} =~ /N(\d+)/g) {
				fail($f, $., "formula refers to N$x but the alt has $n terms") if $x >= $n;
			}
			fail($f, $., "formula: bad token") unless $a->{formula} =~ /^(N\d+\||\d+\||[-+*\/]\|)+$/;
			$a->{coef} = linear_coef($f, $., $a->{formula}, $n);
		} else {
			fail($f, $., 'formula= is for DERIVED_POSTFIX') if defined $a->{formula};
		}
		$a->{coef} //= [ map { $type eq 'DERIVED_SUB' && $_ > 0 ? -1 : 1 } 0 .. $n - 1 ];
		fail($f, $., 'alt: the terms exist on no common CPU model') unless $a->{models};
		push @{$ps->{alts}}, $a;
	} else {
		fail($f, $., "unknown field '$k'");
	}
}
close $fh;
for my $p (@presets) {
	fail($f, $p->{line}, "preset $p->{name} has no alt") unless @{$p->{alts}};
	fail($f, $p->{line}, "preset $p->{name} lacks 'src'") unless defined $p->{src};
}

# --------------------------------------------------------------- output
my $c = "/* Generated by gen_tables.pl from pmu.txt, events.txt, metrics.txt and presets.txt. Do not edit. */\n";
$c .= "#include \"nb_events.h\"\n\n#ifndef NULL\n#define NULL ((void *)0)\n#endif\n\n";
$c .= "const struct nb_counter nb_counters[NB_NUM_COUNTERS] = {\n";
$c .= sprintf("\t{ %s, %s, 0x%x, 0x%x, %d, %d, %d },\n", cstr($_->[0]), cstr($_->[1]), @$_[2..6]) for @counters;
$c .= "};\n\nconst struct nb_escr nb_escrs[] = {\n";
$c .= sprintf("\t{ %s, 0x%x, %d, %d, 0x%05x, 0x%02x },\n", cstr($_->[0]), @$_[1..5]) for @escrs;
$c .= "};\nconst unsigned nb_num_escrs = " . @escrs . ";\n\n";
$c .= "const struct nb_msr nb_msrs[] = {\n";
$c .= sprintf("\t{ %s, %s, 0x%x, UINT64_C(%s) },\n", cstr($_->[0]), cstr($_->[1]), $_->[2], $_->[3]) for @msrs;
$c .= "};\nconst unsigned nb_num_msrs = " . @msrs . ";\n\n";

sub featstr { my $x = shift; return $x ? join(' | ', map { 'NB_FEAT_' . uc $_ } grep { $x & $feat{$_} } sort keys %feat) : '0'; }

for my $e (@events) {
	my $i = $e->{idx};
	$c .= "static const struct nb_mask masks_$i\[] = {\n";
	for my $m (@{$e->{masks}}) {
		my $fl = ($m->{ts} eq 'TS' ? 'NB_MASK_TS' : 'NB_MASK_TI') . ($e->{dfl} & (1 << $m->{bit}) ? ' | NB_MASK_DFL' : '');
		$c .= sprintf("\t{ .name = %s, .desc = %s, .bit = %d, .flags = %s, .alias = %s, .models = 0x%02x, .features = %s },\n",
			cstr($m->{name}), cstr($m->{desc}), $m->{bit}, $fl, cstr($m->{alias}), $m->{models}, featstr($m->{features}));
	}
	$c .= "};\n";
	if (@{$e->{vmasks}}) {
		$c .= "static const struct nb_vmask vmasks_$i\[] = {\n";
		for my $vm (@{$e->{vmasks}}) {
			$c .= sprintf("\t{ .name = %s, .desc = %s, .kind = %s, .arg = %d },\n", cstr($vm->{name}), cstr($vm->{desc}),
				$vm->{kind} eq 'tag' ? 'NB_VMASK_TAG' : 'NB_VMASK_METRIC', $vm->{kind} eq 'tag' ? $vm->{arg} : $vm->{argidx});
		}
		$c .= "};\n";
	}
}
$c .= "\nconst struct nb_event nb_events[] = {\n";
for my $e (@events) {
	my $i = $e->{idx};
	my @x = (@{$e->{escrs}}, 0, 0);
	my @fl = ($e->{retire} ? 'NB_EV_RETIREMENT' : (), $e->{pebs} ? 'NB_EV_PEBS' : ());
	$c .= sprintf("\t{ .name = %s, .desc = %s, .src = %s, .masks = masks_%d, .models = 0x%02x, .flags = %s,\n" .
		"\t  .event_select = 0x%02x, .escr_select = %d, .nescrs = %d, .escrs = { %d, %d }, .nmasks = %d,\n" .
		"\t  .note = %s, .alias = %s, .vmasks = %s, .nvmasks = %d, .kernel_idx = %d, .features = %s,\n" .
		"\t  .role = %s, .default_masks = 0x%04x, .valid_masks = 0x%04x },\n",
		cstr($e->{name}), cstr($e->{desc}), cstr($e->{src}), $i, $e->{models}, @fl ? join(' | ', @fl) : '0',
		$e->{select}, $e->{escrsel}, scalar @{$e->{escrs}}, $x[0], $x[1], scalar @{$e->{masks}},
		cstr($e->{note}), cstr($e->{alias}), @{$e->{vmasks}} ? "vmasks_$i" : 'NULL', scalar @{$e->{vmasks}},
		$e->{kernel}, featstr($e->{features}), $role{$e->{role}}, $e->{dfl}, $e->{valid});
}
$c .= "};\nconst unsigned nb_num_events = " . @events . ";\n\n";

$c .= "const struct nb_metric nb_metrics[] = {\n";
for my $m (@metrics) {
	my $hs = join(', ', map { sprintf('{ .event = %d, .escr = %d, .tag_enable = %d, .masks = 0x%04x }',
		$_->{event}{idx}, $_->{escr}, $_->{tag}, $_->{masks}) } @{$m->{helpers}});
	$c .= sprintf("\t{ .name = %s, .desc = %s, .note = %s, .src = %s,\n" .
		"\t  .pebs_enable = 0x%08x, .matrix_vert = 0x%08x, .models = 0x%02x, .type = %s,\n" .
		"\t  .count_event = %d, .count_masks = 0x%04x, .tag = %d, .kernel_idx = %d, .features = %s,\n" .
		"\t  .nhelpers = %d%s },\n",
		cstr($m->{name}), cstr($m->{desc}), cstr($m->{note}), cstr($m->{src}),
		$m->{pebs_enable}, $m->{matrix_vert}, $m->{models}, $mtype{$m->{type}},
		$m->{count}{idx}, $m->{count_masks}, $m->{tag}, $m->{kernel}, featstr($m->{features}),
		scalar @{$m->{helpers}}, $hs eq '' ? '' : ", .helpers = { $hs }");
}
$c .= "};\nconst unsigned nb_num_metrics = " . @metrics . ";\n\n";

my $pi = 0;
for my $p (@presets) {
	$c .= "static const struct nb_preset_alt palts_$pi\[] = {\n";
	for my $a (@{$p->{alts}}) {
		my $ts = join(",\n\t\t", map { sprintf('{ .name = %s, .kind = %s, .index = %d, .masks = 0x%04x }',
			cstr($_->{name}), $_->{kind}, $_->{index}, $_->{masks}) } @{$a->{terms}});
		$c .= sprintf("\t{ .derived = %s, .formula = %s, .note = %s, .models = 0x%02x, .type = %s, .features = %s,\n" .
			"\t  .nterms = %d, .terms = {\n\t\t%s },\n\t  .coef = { %s } },\n",
			cstr($a->{type}), cstr($a->{formula}), cstr($a->{note}), $a->{models}, $dtype{$a->{type}},
			featstr($a->{features}), scalar @{$a->{terms}}, $ts, join(', ', @{$a->{coef}}));
	}
	$c .= "};\n";
	$pi++;
}
$c .= "\nconst struct nb_preset nb_presets[] = {\n";
$pi = 0;
for my $p (@presets) {
	$c .= sprintf("\t{ .name = %s, .note = %s, .src = %s, .alts = palts_%d, .nalts = %d },\n",
		cstr($p->{name}), cstr($p->{note}), cstr($p->{src}), $pi++, scalar @{$p->{alts}});
}
$c .= "};\nconst unsigned nb_num_presets = " . @presets . ";\n";

my $h = "/* Generated by gen_tables.pl. Do not edit. */\n#ifndef NB_TABLES_IDX_H\n#define NB_TABLES_IDX_H\n";
for my $e (@events) { $h .= sprintf("#define NB_EV_%s %d\n", cname($e->{name}), $e->{idx}); }
my $i = 0;
for my $x (@escrs) { $h .= sprintf("#define NB_ESCR_%s %d\n", $x->[0], $i++); }
for my $x (@msrs) { $h .= sprintf("#define NB_MSR_%s 0x%x\n", $x->[0], $x->[2]); }
for my $m (@metrics) { $h .= sprintf("#define NB_MET_%s %d\n", cname($m->{name}), $m->{idx}); }
$h .= "#define NB_NUM_ESCRS " . @escrs . "\n#define NB_NUM_EVENTS_MAX " . @events . "\n";
$h .= "#define NB_NUM_METRICS_MAX " . @metrics . "\n#define NB_NUM_PRESETS_MAX " . @presets . "\n#endif\n";

for (["nb_tables.c", $c], ["nb_tables_idx.h", $h]) {
	my $p = "$out/$_->[0]";
	open my $o, '>', "$p.tmp" or die "$p: $!\n";
	print $o $_->[1];
	close $o or die "$p: $!\n";
	rename "$p.tmp", $p or die "$p: $!\n";
}
