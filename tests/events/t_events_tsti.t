#!/usr/bin/perl
# t_events_tsti.t - TS/TI (thread-specific / thread-independent) of every
# event-mask bit: native_events/events.txt and the generated tables against
# the per-mask facts in native_events/tsti.txt (the SDM's Table 19-34
# "Event Mask Qualification for Logical Processors", row by row, with the
# rows events.txt lacks, the masks whose rows we could not read, and our
# documented exceptions), and against Linux's .shared (kernel_p4.txt).
#
# Reports (diag): masks the table lists that events.txt lacks, masks of
# events.txt the table does not give (unread page, exceptions), spelling
# differences, and every TS/TI disagreement (each one fails).
use strict;
use warnings;
use Test::More;
use File::Basename qw(dirname);
use Cwd qw(abs_path);
require(dirname(abs_path(__FILE__)) . '/t_events_lib.pl');
our ($NE);

my $t = nb_load();

# ---- the facts ---------------------------------------------------------
# %fact: "EVENT:BIT" => { kind => row|missing|unread|exception, event, bit,
#   name (as the source spells it), ours (our spelling, name= or name),
#   ts, sdm (row/missing: the table's TS/TI; exception: sdm= if given),
#   page, lnx (has [LNX]), text, line }
my (%fact, @order);
open my $fh, '<', "$NE/tsti.txt" or die "$NE/tsti.txt: $!\n";
while (<$fh>) {
	next if /^\s*(#|$)/;
	chomp;
	my %f = (line => $.);
	my $rest;
	if (/^(missing|unread|exception)\s+(\S+)\s+(\d+)\s+(\S+)\s+(TS|TI)\s+(\S.*)$/) {
		@f{qw(kind event bit name ts)} = ($1, $2, $3, $4, $5);
		$rest = $6;
	} elsif (/^(\S+)\s+(\d+)\s+(\S+)\s+(TS|TI)\s+(\[.*)$/) {
		@f{qw(kind event bit name ts)} = ('row', $1, $2, $3, $4);
		$rest = $5;
	} else {
		die "tsti.txt:$.: expected 'EVENT BIT NAME TS|TI [SDM-T19-34 pN] ...' or "
		  . "'missing|unread|exception EVENT BIT NAME TS|TI ...'\n";
	}
	$f{text} = $rest;
	$f{ours} = $rest =~ /(?:^|\s)name=(\S+)/ ? $1 : $f{name};
	$f{lnx} = $rest =~ /\[LNX\]/ ? 1 : 0;
	if ($f{kind} eq 'row' || $f{kind} eq 'missing') {
		$rest =~ /\[SDM-T19-34 (p19-\d+)\]/
		  or die "tsti.txt:$.: a table row needs its [SDM-T19-34 p19-N] citation\n";
		$f{page} = $1;
		$f{sdm} = $f{ts};
	} elsif ($f{kind} eq 'exception' && $rest =~ /(?:^|\s)sdm=(TS|TI)\b/) {
		$f{sdm} = $1;
	}
	my $k = "$f{event}:$f{bit}";
	die "tsti.txt:$.: second line for $k (first at line $fact{$k}{line})\n" if $fact{$k};
	$fact{$k} = \%f;
	push @order, $k;
}
close $fh;

for my $k (@order) {
	my $f = $fact{$k};
	ok(exists $t->{events}{$f->{event}}, "tsti.txt:$f->{line}: $f->{event} is an event of the model")
		or next;
}

# ---- events.txt, mask by mask (the source the generator reads) ---------
my (%src, $cur);
open $fh, '<', "$NE/events.txt" or die "$NE/events.txt: $!\n";
while (<$fh>) {
	$cur = $1 if /^event\s+(\S+)/;
	next unless defined $cur && /^\s+mask\s+(\S+)\s+(\d+)\s+(TS|TI)\s/;
	my ($n, $b, $ts) = ($1, $2, $3);
	my $alias = /\salias=(\S+)/ ? $1 : undef;
	$src{"$cur:$b"} = { event => $cur, name => $n, bit => $b, ts => $ts, alias => $alias, line => $. };
}
close $fh;

# The generated tables, the same way.
my %gen;
for my $e (@{$t->{order}}) {
	for my $m (@{$t->{events}{$e}{masks}}) {
		$gen{"$e:$m->{bit}"} = { event => $e, name => $m->{name}, bit => $m->{bit}, ts => $m->{ts}, alias => $m->{alias} };
	}
}

# Each mask against its fact: covered by exactly one line that is not
# 'missing', same spelling (or name=), same TS/TI.
sub check_masks {
	my ($what, $masks) = @_;
	my ($n, $bad, $uncovered, $misnamed) = (0, 0, 0, 0);
	for my $k (sort keys %$masks) {
		my $m = $masks->{$k};
		my $where = defined $m->{line} ? "$what:$m->{line}" : $what;
		$n++;
		my $f = $fact{$k};
		if (!$f) {
			$uncovered++;
			diag("$where: $m->{event}:$m->{name} (bit $m->{bit}) has no line in tsti.txt");
			next;
		}
		if ($f->{kind} eq 'missing') {
			$uncovered++;
			diag("$where: $m->{event}:$m->{name} (bit $m->{bit}) exists, but tsti.txt:$f->{line} says events.txt lacks it");
			next;
		}
		if ($f->{ours} ne $m->{name} && ($m->{alias} // '') ne $f->{ours}) {
			$misnamed++;
			diag("$where: $m->{event} bit $m->{bit} is $m->{name}, tsti.txt:$f->{line} calls it $f->{ours}");
		}
		next if $m->{ts} eq $f->{ts};
		$bad++;
		my $src = $f->{kind} eq 'row' ? "the SDM (Table 19-34 $f->{page})" : "tsti.txt ($f->{kind})";
		diag("$where: $m->{event}:$m->{name} is $m->{ts}, $src says $f->{ts} (tsti.txt:$f->{line})");
	}
	is($uncovered, 0, "$what: every one of the $n masks has a fact line in tsti.txt");
	is($misnamed, 0, "$what: every mask is spelled as tsti.txt says (name= for the table's other spellings)");
	is($bad, 0, "$what: all $n masks agree on TS/TI with tsti.txt");
	return $n;
}
my $n_src = check_masks('events.txt', \%src);
my $n_gen = check_masks('generated tables', \%gen);
is($n_gen, $n_src, "the generated tables have the $n_src masks of events.txt");

# Every table row is a mask of events.txt, or says why not ('missing');
# every 'missing' row is really missing.
my ($rows, $stale, $unlisted) = (0, 0, 0);
for my $k (@order) {
	my $f = $fact{$k};
	next unless $f->{kind} eq 'row' || $f->{kind} eq 'missing';
	$rows++;
	if ($f->{kind} eq 'row' && !$src{$k}) {
		$unlisted++;
		diag("tsti.txt:$f->{line}: the SDM lists $f->{event} bit $f->{bit} $f->{name} ($f->{ts}, $f->{page}); "
		  . "events.txt lacks it: add it, or mark the line 'missing' with the reason");
	}
	if ($f->{kind} eq 'missing' && $src{$k}) {
		$stale++;
		diag("tsti.txt:$f->{line}: 'missing' $f->{event} bit $f->{bit}, but events.txt:$src{$k}{line} has it");
	}
}
is($unlisted, 0, "every row of Table 19-34 read ($rows) is in events.txt or listed as missing with a reason");
is($stale, 0, "every 'missing' row is still absent from events.txt");

# Unread and exception lines describe masks events.txt has (the
# uncovered-mask check above covers the other direction).
for my $k (@order) {
	my $f = $fact{$k};
	next unless $f->{kind} eq 'unread' || $f->{kind} eq 'exception';
	ok($src{$k}, "tsti.txt:$f->{line}: $f->{kind} $f->{event} bit $f->{bit} is a mask of events.txt");
}

# ---- Linux .shared (kernel_p4.txt) --------------------------------------
# The kernel shares (.shared = 1) exactly the events that have a TI fact,
# unless kernel_p4.txt documents the difference as 'kexception shared';
# [LNX] marks the table rows of shared events, and only those.
my %kshared;
open $fh, '<', "$NE/kernel_p4.txt" or die "$NE/kernel_p4.txt: $!\n";
while (<$fh>) {
	next unless /^kevent\s+(\d+)\s/;
	my @w = split ' ';
	$kshared{$w[1]} = $w[9];
}
close $fh;
my $kx = nb_exceptions("$NE/kernel_p4.txt", 'kexception');
my %has_ti;
for my $k (@order) {
	my $f = $fact{$k};
	next if $f->{kind} eq 'missing';
	$has_ti{$f->{event}} = 1 if $f->{ts} eq 'TI';
}
for my $e (@{$t->{order}}) {
	my $ki = $t->{events}{$e}{kernel};
	next if !defined $ki || $ki eq 'none' || $ki !~ /^\d+$/ || !exists $kshared{$ki};
	my $ti = $has_ti{$e} ? 1 : 0;
	if ($ti == $kshared{$ki}) {
		ok(!exists $kx->{"shared $e"}, "$e: kernel shared=$kshared{$ki} agrees with its facts (no stale kexception)");
	} else {
		ok(exists $kx->{"shared $e"}, "$e: kernel shared=$kshared{$ki} but facts say " . ($ti ? 'TI' : 'TS')
		  . ": documented as 'kexception shared $e'");
	}
	for my $k (grep { $fact{$_}{event} eq $e && $fact{$_}{kind} =~ /^(row|missing)$/ } @order) {
		my $f = $fact{$k};
		is($f->{lnx}, $kshared{$ki} ? 1 : 0, "tsti.txt:$f->{line}: [LNX] " . ($kshared{$ki} ? 'present' : 'absent')
		  . " ($e kernel shared=$kshared{$ki})");
	}
}

# ---- the figures ----------------------------------------------------------
my %kind;
$kind{$fact{$_}{kind}}++ for @order;
my @pages = do { my %p; $p{$fact{$_}{page}}++ for grep { $fact{$_}{page} } @order; sort keys %p };
diag(sprintf("Table 19-34 (%s): %d rows; %d are masks of events.txt, %d are not (missing)",
	join(', ', @pages), $rows, $kind{row} // 0, $kind{missing} // 0));
for my $k (grep { $fact{$_}{kind} eq 'missing' } @order) {
	diag("  missing from events.txt: $fact{$k}{event} bit $fact{$k}{bit} $fact{$k}{name} ($fact{$k}{ts})");
}
diag(sprintf("events.txt: %d masks; %d checked against table rows, %d unread (table page not read), %d exceptions",
	$n_src, $kind{row} // 0, $kind{unread} // 0, $kind{exception} // 0));
my @differ = grep { $fact{$_}{kind} eq 'exception' && $fact{$_}{sdm} && $fact{$_}{sdm} ne $fact{$_}{ts} } @order;
diag("  deliberate TS/TI differences from the table: " . (@differ ? join(', ', @differ) : 'none'));
my @renamed = grep { $fact{$_}{ours} ne $fact{$_}{name} } @order;
diag("  spelled otherwise in events.txt: " . join(', ', map { "$fact{$_}{event}:$fact{$_}{name}=$fact{$_}{ours}" } @renamed))
	if @renamed;
done_testing();
