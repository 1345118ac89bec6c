/**
 * Zipf popularity: the object of rank r (1-based) is requested with probability
 * proportional to 1 / r^s. Web request streams fit exponents of about 0.6–0.9
 * (Breslau et al., "Web caching and Zipf-like distributions: evidence and implications",
 * INFOCOM 1999).
 */
export function zipfProbabilities(objects: number, exponent: number): Float64Array {
  const probabilities = new Float64Array(objects);
  let total = 0;
  for (let rank = 1; rank <= objects; rank++) {
    const weight = Math.pow(rank, -exponent);
    probabilities[rank - 1] = weight;
    total += weight;
  }
  for (let i = 0; i < objects; i++) probabilities[i] /= total;
  return probabilities;
}
