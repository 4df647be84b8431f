! f_sum: N iterations of one scalar double add (s = s + x), N from the
! command line, so two runs with N and 2N differ by exactly N adds.
program f_sum
  implicit none
  character(len=32) :: arg
  integer :: n, i
  real(8) :: s, x
  call get_command_argument(1, arg)
  read (arg, *) n
  s = 0
  x = 1.5d0
  do i = 1, n
    s = s + x
    x = x * 0.5d0 + 1
  end do
  if (s < 0) print *, s
end program f_sum
