! linear.F90 - exactness through PAPI's Fortran API under nbsim.
!
! The same loop runs N, 2N and 3N times between PAPIf_start and PAPIf_stop.
! Whatever code gfortran makes for the body, a count that is exact grows by
! the same amount from N to 2N as from 2N to 3N: the test asserts that
! equality exactly, for instructions, branches and taken branches (TAP).
program linear
  implicit none
  include 'f90papi.h'
  integer, parameter :: n = 2000
  integer :: es, r, i, k, tn
  integer(kind=8) :: v(3, 3)
  character(len=*), parameter :: names(3) = [character(len=12) :: &
       'PAPI_TOT_INS', 'PAPI_BR_INS ', 'PAPI_BR_TKN ']
  real(kind=8) :: s

  r = PAPI_VER_CURRENT
  call PAPIf_library_init(r)
  if (r /= PAPI_VER_CURRENT) then
     print '(a)', 'Bail out! PAPIf_library_init failed'
     stop 1
  end if
  es = PAPI_NULL
  call PAPIf_create_eventset(es, r)
  do i = 1, 3
     call PAPIf_add_named_event(es, trim(names(i)), r)
     if (r /= PAPI_OK) then
        print '(a,a)', 'Bail out! cannot add ', trim(names(i))
        stop 1
     end if
  end do
  s = 0
  call work(n, s)            ! warm-up
  do k = 1, 3
     call PAPIf_start(es, r)
     call work(k * n, s)
     call PAPIf_stop(es, v(:, k), r)
  end do
  print '(a)', '1..3'
  tn = 0
  do i = 1, 3
     tn = tn + 1
     if (v(i, 2) - v(i, 1) == v(i, 3) - v(i, 2) .and. v(i, 2) > v(i, 1)) then
        print '(a,i0,a,a,a,i0,a,i0)', 'ok ', tn, ' - ', trim(names(i)), &
             ' grows by the same amount per N: ', v(i, 2) - v(i, 1), ' = ', v(i, 3) - v(i, 2)
     else
        print '(a,i0,a,a,a,i0,a,i0,a,i0)', 'not ok ', tn, ' - ', trim(names(i)), &
             ' counts at N, 2N, 3N: ', v(i, 1), ' ', v(i, 2), ' ', v(i, 3)
     end if
  end do
  print '(a,g0)', '# checksum ', s
contains
  subroutine work(m, acc)
    integer, intent(in) :: m
    real(kind=8), intent(inout) :: acc
    integer :: j
    do j = 1, m
       if (mod(j, 3) == 0) then
          acc = acc + 1.0d0 / j
       else
          acc = acc - 0.5d0 / j
       end if
    end do
  end subroutine work
end program linear
