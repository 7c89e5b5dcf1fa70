import { crossedMilestone, milestoneOf } from './milestones';

const min = (m: number, s = 0) => m * 60_000 + s * 1000;

test('milestoneOf', () => {
  expect(milestoneOf(min(30))).toBe(Infinity);
  expect(milestoneOf(min(20))).toBe(20);
  expect(milestoneOf(min(19, 59))).toBe(20);
  expect(milestoneOf(min(9, 30))).toBe(10);
  expect(milestoneOf(min(0, 59))).toBe(1);
  expect(milestoneOf(0)).toBe(0);
});

test('a ticking countdown announces each milestone once, and time up', () => {
  let previous = milestoneOf(min(20, 2)); // on load: nothing announced
  const announced: number[] = [];
  for (let left = min(20, 2); left >= -2000; left -= 1000) {
    const crossed = crossedMilestone(previous, left);
    if (crossed !== null) {
      announced.push(crossed);
      previous = crossed;
    }
  }
  expect(announced).toEqual([20, 10, 5, 1, 0]);
});

test('a page opened inside a milestone does not announce it; a long sleep announces only where it woke up', () => {
  expect(crossedMilestone(milestoneOf(min(7)), min(6, 59))).toBeNull();
  expect(crossedMilestone(milestoneOf(min(25)), min(3))).toBe(5);
});
